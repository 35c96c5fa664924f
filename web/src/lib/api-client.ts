import { paths } from '../config/paths';
import { isMessageCode, MESSAGES, type Envelope, type ErrorData } from './domain-core';
import { clearSession, getAccessToken, getRealUser, getSession, isLeaving, saveTokens, stopImpersonating, switchSessionAndGo } from './session';
import type { AuthTokens, LoginData } from './domain-core';

/** Spec section 9: API time-out 50,000 ms. */
export const API_TIMEOUT_MS = 50_000;
const BASE_URL = '/api';

export type ApiErrorCode = ErrorData['code'];

/** A non-2xx answer (or no answer at all) with the envelope's status, message and `data.code`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: ApiErrorCode,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The server answered and refused (4xx): the input or the link is wrong. Anything else (no answer,
 * a time-out, a server fault) means the check itself could not be made, which the spec words
 * differently ('OTP verification failed', 'Something went wrong while checking token.').
 */
export const wasRefused = (error: unknown): boolean => error instanceof ApiError && error.status >= 400 && error.status < 500;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  return `${BASE_URL}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isEnvelope(body: unknown): body is Envelope<unknown> {
  return typeof body === 'object' && body !== null && 'data' in body;
}

function errorFrom(response: Response, body: unknown): ApiError {
  const envelope = isEnvelope(body) ? body : null;
  const data = envelope?.data;
  const rawCode = typeof data === 'object' && data !== null ? (data as { code?: unknown }).code : undefined;
  const code: ApiErrorCode = isMessageCode(rawCode) || rawCode === 'validation' ? rawCode : 'unknown';
  const message = typeof envelope?.message === 'string' && envelope.message ? envelope.message : response.statusText;
  return new ApiError(response.status, message, code, data ?? null);
}

/** Spec section 8: a 401 clears the session and sends the browser to sign in, remembering where it was. */
function onUnauthorized(): void {
  // A request sent with the session this page is leaving (e.g. the impersonated user's, just ended)
  // must not log out the session that was stored for the next page.
  if (isLeaving()) return;
  clearSession();
  const here = `${window.location.pathname}${window.location.search}`;
  if (window.location.pathname !== paths.login.path) window.location.assign(paths.login.getHref(here));
}

/** Tries of one request while the answer says the server is briefly away (spec section 9's time-out still bounds them all). */
const ATTEMPTS = 4;

/** A server briefly away (restarting, out of rotation) or the same keyed change still running. */
const isTransient = (status: number, code: ApiErrorCode) => (status >= 502 && status <= 504) || (status === 409 && code === 'requestInProgress');

/** Refused before any work was done (the password checks are all busy): safe to send again, even a sign-in. */
const isBusy = (status: number, code: ApiErrorCode) => status === 429 && code === 'serverBusy';

/** Waits before try `attempt + 1` (the server's Retry-After, at most 5 s); false when the request was cancelled meanwhile. */
function pause(attempt: number, retryAfter: string | null, signal: AbortSignal): Promise<boolean> {
  const seconds = Math.min(5, Number(retryAfter) || attempt);
  return new Promise((done) => {
    if (signal.aborted) return done(false);
    const timer = setTimeout(() => done(!signal.aborted), seconds * 1000);
    signal.addEventListener('abort', () => (clearTimeout(timer), done(false)), { once: true });
  });
}

/** A fresh Idempotency-Key (crypto.randomUUID needs a secure context; the random bytes do not). */
function requestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The one HTTP client: JSON in and out, bearer token from `auth`, 50 s time-out, and the response
 * envelope `{status, message, data}` unwrapped to `data`.
 */
export async function apiRequest<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: RequestOptions = {}): Promise<T> {
  const token = getAccessToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  // Fastify refuses an empty body sent as JSON, so a POST without arguments sends `{}`.
  const body = method === 'GET' ? undefined : JSON.stringify(options.body ?? {});
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  // A change sent by a signed-in person carries a key, so that sending it again after a lost answer
  // (a dropped phone signal, a server restarting) is the same change, never a second one. Sign-in
  // and token routes are not keyed by the server: they are never sent twice.
  const retriable = method === 'GET' || (Boolean(token) && !path.startsWith('/Account/'));
  if (method !== 'GET' && retriable) headers['Idempotency-Key'] = requestKey();

  const timeout = AbortSignal.timeout(API_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let response: Response;
  let parsed: unknown;
  for (let attempt = 1; ; attempt++) {
    try {
      response = await fetch(buildUrl(path, options.query), { method, headers, body, signal });
    } catch (error) {
      // A caller's own cancellation (React Query unmounting) is not an error to show.
      if (options.signal?.aborted) throw error;
      if (retriable && !timeout.aborted && attempt < ATTEMPTS && (await pause(attempt, null, signal))) continue;
      console.error(timeout.aborted ? 'Request timeout' : 'Network error - server not reachable', error);
      // Spec section 8: no response at all reads as status 500 'An unexpected error occurred'.
      throw new ApiError(500, MESSAGES.unexpectedError, 'unexpectedError');
    }
    parsed = await readBody(response);
    const code = response.ok ? null : errorFrom(response, parsed).code;
    const again = code !== null && attempt < ATTEMPTS && ((retriable && isTransient(response.status, code)) || isBusy(response.status, code));
    if (!(again && (await pause(attempt, response.headers.get('retry-after'), signal)))) break;
  }

  if (!response.ok) {
    // Only a request that carried a token means "your session ended"; a failed sign-in is not that.
    if (response.status === 401 && token) onUnauthorized();
    const error = errorFrom(response, parsed);
    if (error.code === 'accessGrantEnded' && getRealUser()) void endEndedImpersonation();
    throw error;
  }
  return (isEnvelope(parsed) ? parsed.data : parsed) as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('DELETE', path, options),
};

/** Spec sections 4 and 9: refresh 5 minutes before the access token expires; skip a wait under 30 s. */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
export const MIN_REFRESH_WAIT_MS = 30_000;

/**
 * When to refresh: 'now' when already due, null when the wait would be under 30 seconds (the
 * scheduled refresh is skipped, spec section 4), otherwise the wait in milliseconds.
 */
export function refreshDelay(expiresAt: string, now = Date.now()): number | 'now' | null {
  const expiry = Date.parse(expiresAt);
  if (Number.isNaN(expiry)) return 'now';
  const wait = expiry - REFRESH_BEFORE_EXPIRY_MS - now;
  if (wait <= 0) return 'now';
  if (wait < MIN_REFRESH_WAIT_MS) return null;
  return wait;
}

let endingImpersonation = false;
/**
 * The household revoked access, or its grant expired: the impersonation is over. Exit
 * gives the ambassador their own session back, and their dashboard says why.
 */
async function endEndedImpersonation(): Promise<void> {
  if (endingImpersonation) return;
  endingImpersonation = true;
  try {
    const data = await apiRequest<LoginData>('POST', '/Account/exit-impersonation');
    switchSessionAndGo(() => stopImpersonating(data), paths.ambassador.dashboard.getHref('?accessEnded=1'));
  } catch {
    endSession();
  }
}

function endSession(): void {
  if (isLeaving()) return;
  clearSession();
  const here = `${window.location.pathname}${window.location.search}`;
  if (window.location.pathname !== paths.login.path) window.location.assign(paths.login.getHref(here));
}

/** POST refresh-token; a missing refresh token or a failed refresh logs the user out (spec section 4). */
export async function refreshTokens(): Promise<void> {
  const refreshToken = getSession()?.tokens.refreshToken;
  if (!refreshToken) return endSession();
  // A logout (or another sign-in) while the refresh is in flight wins: a late answer must never
  // bring a cleared session back.
  const stillCurrent = () => getSession()?.tokens.refreshToken === refreshToken;
  try {
    const tokens = await apiRequest<AuthTokens>('POST', '/Account/refresh-token', { body: { refreshToken } });
    if (stillCurrent()) saveTokens(tokens);
  } catch {
    if (stillCurrent()) endSession();
  }
}
