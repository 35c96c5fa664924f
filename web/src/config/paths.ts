import { portalPath } from '../lib/domain-core';

/** Every route path of the app in one place (spec section 2). `getHref` builds a link to it. */
export const paths = {
  landing: { path: '/', getHref: () => '/' },
  home: { path: '/home', getHref: () => '/home' },
  login: {
    path: '/login',
    getHref: (redirectTo?: string | null) =>
      redirectTo ? `/login?redirect=${encodeURIComponent(redirectTo)}` : '/login',
  },
  /** Spec section 2 "no role needed" and signed-out pages. */
  auth: {
    register: { path: '/register', getHref: () => '/register' },
    organizationRegister: { path: '/:organization/register', getHref: (org: string) => `/${encodeURIComponent(org)}/register` },
    ambassadorRegister: { path: '/housing-ambassador-register', getHref: () => '/housing-ambassador-register' },
    forgetPassword: { path: '/forget-password', getHref: () => '/forget-password' },
    forgetUsername: { path: '/forget-username', getHref: () => '/forget-username' },
    forgetUsernameOtp: { path: '/forget-username/verify-otp', getHref: (email: string) => `/forget-username/verify-otp?email=${encodeURIComponent(email)}` },
    resetPassword: { path: '/resetpassword', getHref: () => '/resetpassword' },
    linkExpired: { path: '/link-expired', getHref: () => '/link-expired' },
    verifyEmail: { path: '/verify-email', getHref: () => '/verify-email' },
    chooseOtpMethod: { path: '/choose-otp-method', getHref: () => '/choose-otp-method' },
    verifyOtp: { path: '/verify-otp', getHref: () => '/verify-otp' },
    profileMatching: { path: '/profile-matching', getHref: (q: Record<string, string> = {}) => `/profile-matching?${new URLSearchParams(q)}` },
    linkProfile: { path: '/link-profile', getHref: (q: Record<string, string> = {}) => `/link-profile?${new URLSearchParams(q)}` },
    link: { path: '/link', getHref: (q: Record<string, string> = {}) => `/link?${new URLSearchParams(q)}` },
    leaseUpProfileMatching: { path: '/lease-up-profile-matching', getHref: (q: Record<string, string> = {}) => `/lease-up-profile-matching?${new URLSearchParams(q)}` },
    termsOfUse: { path: '/terms-of-use', getHref: () => '/terms-of-use' },
    privacyPolicy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
    requestImpersonateUser: { path: '/request-impersonate-user', getHref: (userId: string) => `/request-impersonate-user?userId=${encodeURIComponent(userId)}` },
  },
  /** The how-to videos (spec section 2, no role needed); `?video=` opens one. */
  playVideo: { path: '/play-video', getHref: (video?: string) => (video ? `/play-video?video=${encodeURIComponent(video)}` : '/play-video') },
  settings: {
    profileSetting: { path: '/profile-setting', getHref: () => '/profile-setting' },
  },
  public: {
    opportunities:
 { path: '/public/opportunities', getHref: () => '/public/opportunities' },
    opportunity: {
      path: '/public/opportunity/:id',
      getHref: (id: string) => `/public/opportunity/${encodeURIComponent(id)}`,
    },
    /** Listing alerts of a signed-out visitor, and the pages the links of alert messages open. */
    getAlerts: { path: '/get-alerts', getHref: () => '/get-alerts' },
    confirmAlert: { path: '/alerts/confirm', getHref: () => '/alerts/confirm' },
    unsubscribeAlert: { path: '/alerts/unsubscribe', getHref: () => '/alerts/unsubscribe' },
    /** The page the link of a waitlist check-in notice opens (infra/db/repositories/waitlist.ts writes it). */
    waitlistCheckIn: { path: '/waitlist/check-in', getHref: () => '/waitlist/check-in' },
    /** A lottery's published draw and ranks, by log number, without names. */
    lotteryResults: {
      path: '/lottery/:opportunityId/results',
      getHref: (opportunityId: string) => `/lottery/${encodeURIComponent(opportunityId)}/results`,
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
    /** The signed-in household's listing alerts. */
    alerts: { path: '/alerts', getHref: () => '/alerts' },
    /** A household that applied on paper claims its application with the code of its first letter (path chosen here). */
    claimPaper: { path: '/claim-paper-application', getHref: () => '/claim-paper-application' },
    myFavorites: { path: '/my-favorites', getHref: () => '/my-favorites' },
    application: {
      path: '/myApplications/:id',
      getHref: (id: string) => `/myApplications/${encodeURIComponent(id)}`,
    },
    recertification: { path: '/recertification', getHref: () => '/recertification' },
    relocation: { path: '/relocation', getHref: () => '/relocation' },
    training: { path: '/training', getHref: () => '/training' },
    profile: { path: '/profile', getHref: () => '/profile' },
    /** The intake assistant (path chosen here). */
    intake: { path: '/profile/assistant', getHref: () => '/profile/assistant' },
    myDocument: { path: '/myDocument', getHref: () => '/myDocument' },
    /** Spec section 2: support tickets (User and HousingAmbassador); from a case, the case rides in the query. */
    supportTickets: {
      path: '/support-ticket',
      getHref: (fromCase?: { caseKind: string; caseId: string }) => (fromCase ? `/support-ticket?${new URLSearchParams(fromCase)}` : '/support-ticket'),
    },
    supportTicket: { path: '/support-ticket/:id', getHref: (id: string) => `/support-ticket/${encodeURIComponent(id)}` },
    /** The FAQ, searchable (path chosen here). */
    help: { path: '/help', getHref: () => '/help' },
  },
  manager: {
    tasks: { path: '/manager/tasks', getHref: () => '/manager/tasks' },
    /** The organisation's applications, or one opportunity's (path chosen here). */
    applications: {
      path: '/manager/applications',
      getHref: (opportunityId?: string) => (opportunityId ? `/manager/applications?opportunityId=${encodeURIComponent(opportunityId)}` : '/manager/applications'),
    },
    recertification: {
      path: '/manager/recertification/:caseId',
      getHref: (caseId: string) => `/manager/recertification/${encodeURIComponent(caseId)}`,
    },
    /** The organisation's tenant households, to start a recertification or act for one (path chosen here). */
    recertifications: { path: '/manager/recertifications', getHref: () => '/manager/recertifications' },
    relocations: { path: '/manager/relocations', getHref: () => '/manager/relocations' },
    /** A bulk action's progress and results (path chosen here). */
    bulkBatch: { path: '/manager/bulk/:batchId', getHref: (batchId: string) => `/manager/bulk/${encodeURIComponent(batchId)}` },
    /** The support queue of the organisation (every ticket for an admin); paths chosen here. */
    supportTickets: { path: '/manager/support-tickets', getHref: () => '/manager/support-tickets' },
    supportTicket: { path: '/manager/support-ticket/:id', getHref: (id: string) => `/manager/support-ticket/${encodeURIComponent(id)}` },
    relocation: {
      path: '/manager/relocation/:id',
      getHref: (id: string) => `/manager/relocation/${encodeURIComponent(id)}`,
    },
    opportunities: { path: '/manager/opportunities', getHref: () => '/manager/opportunities' },
    /** The opportunity editor (paths chosen here). */
    newOpportunity: { path: '/manager/opportunities/new', getHref: () => '/manager/opportunities/new' },
    editOpportunity: {
      path: '/manager/opportunities/:id/edit',
      getHref: (id: string) => `/manager/opportunities/${encodeURIComponent(id)}/edit`,
    },
    lottery: {
      path: '/manager/opportunities/:id/lottery',
      getHref: (id: string) => `/manager/opportunities/${encodeURIComponent(id)}/lottery`,
    },
    waitlist: {
      path: '/manager/opportunities/:id/waitlist',
      getHref: (id: string) => `/manager/opportunities/${encodeURIComponent(id)}/waitlist`,
    },
    /** Paper and mail applicants (paths chosen here): entry, possible duplicates, the office's print queue. */
    paperEntry: {
      path: '/manager/opportunities/:id/lottery/paper',
      getHref: (id: string) => `/manager/opportunities/${encodeURIComponent(id)}/lottery/paper`,
    },
    duplicates: {
      path: '/manager/opportunities/:id/lottery/duplicates',
      getHref: (id: string) => `/manager/opportunities/${encodeURIComponent(id)}/lottery/duplicates`,
    },
    printQueue: { path: '/manager/print-queue', getHref: () => '/manager/print-queue' },
  },
  ambassador: {
    // Sign-in sends ambassadors here (spec section 4).
    dashboard: { path: '/ambassador/dashboard', getHref: (query = '') => `/ambassador/dashboard${query}` },
    users: { path: '/ambassador/users', getHref: () => '/ambassador/users' },
    organizations: { path: '/ambassador/organizations', getHref: () => '/ambassador/organizations' },
    /** Spec section 2 spells it this way. */
    userDashboard: {
      path: '/:ambassdorId/ambassdor/user/:id/dashboard',
      getHref: (ambassadorId: string, userId: string) => `/${encodeURIComponent(ambassadorId)}/ambassdor/user/${encodeURIComponent(userId)}/dashboard`,
    },
  },
  admin: {
    users: { path: '/admin/users', getHref: () => '/admin/users' },
    organizations: { path: '/admin/organizations', getHref: () => '/admin/organizations' },
    // The help page's questions and answers.
    faq: { path: '/admin/faq', getHref: () => '/admin/faq' },
  },
  /** Spec section 2: a user with no linked organisation lacks permission and may apply (path chosen here). */
  noOrganization: { path: '/no-organization', getHref: () => '/no-organization' },
  /** The operator console of Admins (paths chosen here). */
  operator: {
    console: { path: '/operator', getHref: () => '/operator' },
    case: { path: '/operator/cases/:kind/:id', getHref: (kind: string, id: string) => `/operator/cases/${encodeURIComponent(kind)}/${encodeURIComponent(id)}` },
  },
} as const;

/**
 * A `redirect` query value is only followed when it is a path inside this app, so a crafted link
 * cannot send a user who just signed in to another site.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  const path = portalPath(value);
  if (!path || path === paths.login.path || path.startsWith(`${paths.login.path}?`)) return null;
  return path;
}
