import type { Role } from '../domain';

// The signed-in caller as every route and service sees it. Its own module, below the auth plugin
// that sets it and the services the plugin calls, so neither imports the other for it.

/** What an access token says: who acts, with which role, and who really signed in when impersonating. */
export interface TokenClaims {
  sub: string;
  role: Role;
  /** The ambassador or manager behind an impersonated session (spec section 4). */
  realUserId?: string;
  /** The refresh-token family of this sign-in: logout or reuse detection revokes it, and its access tokens stop. */
  fam?: string;
}

export interface Session {
  userId: string;
  role: Role;
  realUserId: string | null;
  /** Refresh-token family of the sign-in (null for tokens issued without one). */
  familyId?: string | null;
  /**
   * The hashed Idempotency-Key the request was sent with (api/plugins/idempotency.ts): what the
   * request's effect is keyed by, so a retry after a crash finds the first effect instead of making a second.
   */
  requestKey?: string | null;
}
