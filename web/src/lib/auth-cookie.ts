import { AUTH_MARKER_COOKIE } from './domain-core';

/** Spec section 2: whether the authentication cookie (set by the API at sign-in) exists. */
export function hasAuthCookie(): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${AUTH_MARKER_COOKIE}=1`));
}

/** Forgets the marker when the session is forgotten here (a 401, a failed refresh, logout). */
export function clearAuthCookie(): void {
  document.cookie = `${AUTH_MARKER_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}
