import { z } from 'zod';
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './fields';

export type { AuthTokens, Language, LoginData, SignedInUser } from './session-data';
export { AUTH_MARKER_COOKIE, LANGUAGES, STORAGE_KEYS } from './session-data';

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

