/** Every route path of the app in one place (spec section 2). `getHref` builds a link to it. */
export const paths = {
  landing: { path: '/', getHref: () => '/' },
  home: { path: '/home', getHref: () => '/home' },
  login: {
    path: '/login',
    getHref: (redirectTo?: string | null) =>
      redirectTo ? `/login?redirect=${encodeURIComponent(redirectTo)}` : '/login',
  },
  public: {
    opportunities: { path: '/public/opportunities', getHref: () => '/public/opportunities' },
    opportunity: {
      path: '/public/opportunity/:id',
      getHref: (id: string) => `/public/opportunity/${encodeURIComponent(id)}`,
    },
  },
  app: {
    dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
    opportunities: { path: '/opportunities', getHref: () => '/opportunities' },
    opportunity: {
      path: '/opportunity/:id',
      getHref: (id: string) => `/opportunity/${encodeURIComponent(id)}`,
    },
    myApplications: { path: '/myApplications', getHref: () => '/myApplications' },
    application: {
      path: '/myApplications/:id',
      getHref: (id: string) => `/myApplications/${encodeURIComponent(id)}`,
    },
  },
  manager: {
    tasks: { path: '/manager/tasks', getHref: () => '/manager/tasks' },
  },
  ambassador: {
    // Not built yet; sign-in sends ambassadors here (spec section 4).
    dashboard: { path: '/ambassador/dashboard', getHref: () => '/ambassador/dashboard' },
  },
} as const;

/**
 * A `redirect` query value is only followed when it is a path inside this app, so a crafted link
 * cannot send a user who just signed in to another site.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value === paths.login.path || value.startsWith(`${paths.login.path}?`)) return null;
  return value;
}
