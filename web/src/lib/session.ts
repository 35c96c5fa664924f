import { clearAuthCookie } from './auth-cookie';
import { parseRole, STORAGE_KEYS, type AuthTokens, type LoginData, type SignedInUser } from './domain-core';

/**
 * The signed-in session kept in local storage under `user` and `auth` (spec section 3). A small
 * external store so the HTTP client (outside React) and components read and clear the same data.
 */
export interface Session {
  user: SignedInUser;
  tokens: AuthTokens;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let cached: { raw: string; session: Session | null } | null = null;

function readJson(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const bool = (v: unknown): boolean => v === true;

/** Builds the section 3 user with its defaults; a role outside the list drops the whole session. */
export function toSignedInUser(raw: unknown): SignedInUser | null {
  if (!isRecord(raw) || typeof raw.userId !== 'string' || !raw.userId) return null;
  const role = parseRole(raw.role);
  if (!role) return null;
  return {
    userId: raw.userId,
    username: str(raw.username),
    email: str(raw.email),
    phoneNumber: str(raw.phoneNumber),
    firstName: str(raw.firstName),
    lastName: str(raw.lastName),
    isMfaEnabled: bool(raw.isMfaEnabled),
    role,
    isRecertificationExpired: bool(raw.isRecertificationExpired),
    isProfileLocked: bool(raw.isProfileLocked),
    isTenantSigned: bool(raw.isTenantSigned),
    organizationPhone: str(raw.organizationPhone),
    organizationEmail: str(raw.organizationEmail),
    organizationId: str(raw.organizationId),
    householdSize: typeof raw.householdSize === 'number' ? raw.householdSize : 0,
    tenantId: str(raw.tenantId),
    isApplicant: bool(raw.isApplicant),
    isHousingAmbassador: bool(raw.isHousingAmbassador),
    underRelocation: bool(raw.underRelocation),
    isManager: bool(raw.isManager),
  };
}

function toTokens(raw: unknown): AuthTokens | null {
  if (!isRecord(raw) || typeof raw.accessToken !== 'string' || !raw.accessToken) return null;
  return {
    accessToken: raw.accessToken,
    refreshToken: typeof raw.refreshToken === 'string' ? raw.refreshToken : null,
    accessTokenExpiresAt: str(raw.accessTokenExpiresAt),
  };
}

/**
 * Set once the stored session was replaced and the browser is loading another page: until it has
 * left, this page keeps the session it was drawn with, so no guard on it sees a role it was not
 * drawn for (and logs out the session that was just stored).
 */
let leaving = false;

/** True while this page is ending its session for another (see `holdSession`, `switchSessionAndGo`). */
export function isLeaving(): boolean {
  return leaving;
}

/**
 * From now on this page is leaving its session (an exit from impersonation is on its way): the
 * server may already refuse the old token, and such refusals must not log anybody out. Release
 * it if the exit fails.
 */
export function holdSession(): () => void {
  getSession();
  getRealUser();
  leaving = true;
  return () => {
    leaving = false;
  };
}

/**
 * Replaces the stored session with `write` and loads `href` afresh (impersonation start and exit,
 * spec section 4): the next page starts from the new session, this one never renders with it.
 */
export function switchSessionAndGo(write: () => void, href: string): void {
  getSession();
  getRealUser();
  leaving = true;
  write();
  window.location.assign(href);
}

export function getSession(): Session | null {
  if (leaving && cached) return cached.session;
  const raw = `${localStorage.getItem(STORAGE_KEYS.user) ?? ''}\u0000${localStorage.getItem(STORAGE_KEYS.auth) ?? ''}\u0000${localStorage.getItem(STORAGE_KEYS.isImpersonating) ?? ''}`;
  if (cached?.raw === raw) return cached.session;
  const user = toSignedInUser(readJson(STORAGE_KEYS.user));
  const tokens = toTokens(readJson(STORAGE_KEYS.auth));
  const session = user && tokens ? { user, tokens } : null;
  cached = { raw, session };
  return session;
}

export function getAccessToken(): string | null {
  return getSession()?.tokens.accessToken ?? null;
}

function notify(): void {
  for (const listener of listeners) listener();
}

/** Device tokens of accounts that signed in on this browser: they keep signing in while strangers are throttled. */
export function knownDeviceTokens(): string[] {
  const stored = readJson(STORAGE_KEYS.deviceTokens);
  return Array.isArray(stored) ? stored.filter((t): t is string => typeof t === 'string').slice(0, 5) : [];
}

function rememberDeviceToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.deviceTokens, JSON.stringify([token, ...knownDeviceTokens().filter((t) => t !== token)].slice(0, 5)));
}

/** Stores what login answered: the user fields under `user`, the tokens under `auth`. */
export function saveSession(data: LoginData, { silent = false }: { silent?: boolean } = {}): Session {
  const { accessToken, refreshToken, accessTokenExpiresAt, deviceToken, ...rest } = data;
  if (deviceToken) rememberDeviceToken(deviceToken);
  const user = toSignedInUser(rest);
  if (!user) throw new Error('Login answered a user without a known role');
  const tokens: AuthTokens = { accessToken, refreshToken, accessTokenExpiresAt };
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  localStorage.setItem(STORAGE_KEYS.auth, JSON.stringify(tokens));
  if (!silent) notify();
  return { user, tokens };
}

/** Stores refreshed tokens, keeping the user (spec section 4 token refresh). */
export function saveTokens(tokens: AuthTokens): void {
  localStorage.setItem(STORAGE_KEYS.auth, JSON.stringify(tokens));
  notify();
}

/** Forgets the session (spec section 4 logout, section 8 401), including any impersonation. */
export function clearSession(): void {
  clearAuthCookie();
  localStorage.removeItem(STORAGE_KEYS.user);
  localStorage.removeItem(STORAGE_KEYS.auth);
  localStorage.removeItem(STORAGE_KEYS.realUser);
  localStorage.removeItem(STORAGE_KEYS.isImpersonating);
  localStorage.removeItem(STORAGE_KEYS.pendingUserId);
  notify();
}

/** The user id kept between a login that needs MFA and the OTP check (spec section 3 `pendingUserId`). */
export function getPendingUserId(): string | null {
  return localStorage.getItem(STORAGE_KEYS.pendingUserId);
}
export function setPendingUserId(userId: string | null): void {
  if (userId) localStorage.setItem(STORAGE_KEYS.pendingUserId, userId);
  else localStorage.removeItem(STORAGE_KEYS.pendingUserId);
}

/**
 * Spec section 4 impersonation: the acting user's session replaces the current one, the real user
 * is kept under `realUser` and `isImpersonating` is set.
 */
export function startImpersonating(data: { user: SignedInUser; realUser: SignedInUser } & AuthTokens): void {
  saveSession({ ...data.user, accessToken: data.accessToken, refreshToken: data.refreshToken, accessTokenExpiresAt: data.accessTokenExpiresAt }, { silent: true });
  localStorage.setItem(STORAGE_KEYS.realUser, JSON.stringify(data.realUser));
  localStorage.setItem(STORAGE_KEYS.isImpersonating, 'true');
  notify();
}

/**
 * Exit: the real session from the response replaces the impersonated one; the flags are cleared.
 * Callers load the real user's home through `switchSessionAndGo`: re-rendering the current
 * (resident) page with the ambassador's role would count as a visit without an allowed role.
 */
export function stopImpersonating(data: LoginData): void {
  localStorage.removeItem(STORAGE_KEYS.realUser);
  localStorage.removeItem(STORAGE_KEYS.isImpersonating);
  saveSession(data, { silent: true });
}

let realUserCache: { raw: string; user: SignedInUser | null } | null = null;
/** The real (ambassador or manager) user while impersonating; the same object until storage changes. */
export function getRealUser(): SignedInUser | null {
  const raw = localStorage.getItem(STORAGE_KEYS.isImpersonating) === 'true' ? (localStorage.getItem(STORAGE_KEYS.realUser) ?? '') : '';
  if (realUserCache?.raw === raw || (leaving && realUserCache)) return realUserCache.user;
  realUserCache = { raw, user: raw ? toSignedInUser(readJson(STORAGE_KEYS.realUser)) : null };
  return realUserCache.user;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes this tab's session too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.user || event.key === STORAGE_KEYS.auth || event.key === STORAGE_KEYS.isImpersonating) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
