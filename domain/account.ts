import { z } from 'zod';

export type { AuthTokens, Language, LoginData, SignedInUser } from './session-data';
export { AUTH_MARKER_COOKIE, LANGUAGES, STORAGE_KEYS } from './session-data';

export const LoginBody = z.object({
  /** Username or email. */
  username: z.string().trim().min(1, 'Required').max(254),
  password: z.string().min(1, 'Required').max(1024),
});
export type LoginBody = z.infer<typeof LoginBody>;

