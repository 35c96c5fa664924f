import { z } from 'zod';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './fields';
import type { Role } from './roles';

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

/** A device token handed out by a successful sign-in; the browser keeps one per account it signed in to. */
export const DeviceTokens = z.array(z.string().min(20).max(100)).max(5).optional();

export const LoginBody = z.object({
  /** Username or email. */
  username: z.string().trim().min(1, 'Required').max(254).refine(isSafeText, UNSAFE_TEXT_MESSAGE),
  password: z.string().min(1, 'Required').max(1024).refine(isSafeText, UNSAFE_TEXT_MESSAGE),
  /** Tokens of devices that signed in before: they keep signing in while strangers are throttled. */
  deviceTokens: DeviceTokens,
});

/** A one-time sign-in code sent to the account's email (when its password is being guessed by others). */
export const SendLoginCodeBody = z.object({ username: z.string().trim().min(1, 'Required').max(254) });
export const LoginWithCodeBody = z.object({
  username: z.string().trim().min(1, 'Required').max(254),
  otp: z.string().trim().regex(/^\d{6}$/, 'Invalid OTP'),
  deviceTokens: DeviceTokens,
});
export type LoginBody = z.infer<typeof LoginBody>;

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

export const LANGUAGES = ['en', 'es', 'zh', 'bn'] as const;
export type Language = (typeof LANGUAGES)[number];
