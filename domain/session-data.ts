import type { Role } from './role-names';

/** What the browser keeps of a session (spec section 3); no zod, so the app's first load stays small. */

/** Spec section 3: the signed-in user kept in local storage under `user`. */
export interface SignedInUser {
  userId: string;
  username: string;
  email: string;
  phoneNumber: string;
  firstName: string;
  lastName: string;
  isMfaEnabled: boolean;
  role: Role;
  isRecertificationExpired: boolean;
  isProfileLocked: boolean;
  isTenantSigned: boolean;
  organizationPhone: string;
  organizationEmail: string;
  organizationId: string;
  householdSize: number;
  tenantId: string;
  isApplicant: boolean;
  isHousingAmbassador: boolean;
  underRelocation: boolean;
  isManager: boolean;
}

/** Spec section 3: the auth token object kept under `auth`. */
export interface AuthTokens {
  accessToken: string;
  refreshToken: string | null;
  /** UTC ISO time. */
  accessTokenExpiresAt: string;
}

/** Login answers the signed-in user's fields and the tokens in `data` (spec section 3, login response). */
export type LoginData = SignedInUser & AuthTokens & {
  /** A new device token after a sign-in from a device not known yet; the browser keeps it. */
  deviceToken?: string | null;
};

/** Spec section 3 local storage keys. */
export const STORAGE_KEYS = {
  user: 'user',
  auth: 'auth',
  pendingUserId: 'pendingUserId',
  opportunityFilters: 'opportunityFilters',
  realUser: 'realUser',
  isImpersonating: 'isImpersonating',
  language: 'i18nextLng',
  /** Device tokens of accounts that signed in on this browser (see LoginBody.deviceTokens). */
  deviceTokens: 'deviceTokens',
} as const;

/**
 * Spec section 2: the app shows an Authenticated marker when an authentication cookie exists. The
 * API sets this cookie at sign-in (it holds no token, only '1') and clears it at logout.
 */
export const AUTH_MARKER_COOKIE = 'portal_authenticated';

export const LANGUAGES = ['en', 'es', 'zh', 'bn'] as const;
export type Language = (typeof LANGUAGES)[number];
