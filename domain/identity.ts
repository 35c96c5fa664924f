import { z } from 'zod';
import type { SignedInUser } from './account';
import { MESSAGES } from './messages';

/** Request bodies of `/api/Account`, `/api/ProfileMatch`, `/api/UserProfile` and `/api/Signature` (spec sections 3 and 7). */

const userId = z.string().uuid('Required');
const otp = z.string().trim().regex(/^\d{6}$/, 'Invalid OTP');
export const OtpChannel = z.enum(['email', 'sms']);
export type OtpChannel = z.infer<typeof OtpChannel>;

/** Spec section 5 has no password rule; ours: 8+ characters with a letter and a number. */
export const Password = z
  .string()
  .min(8, MESSAGES.weakPassword)
  .max(200, MESSAGES.weakPassword)
  .refine((p) => /[A-Za-z]/.test(p) && /\d/.test(p), MESSAGES.weakPassword);

/** Spec section 5: phone at least 10 digits. */
export const Phone = z
  .string()
  .trim()
  .refine((p) => p.replace(/\D/g, '').length >= 10, MESSAGES.phoneTooShort);

export const SendOtpBody = z.object({ userId, otpChannel: OtpChannel.optional() });
export const VerifyOtpBody = z.object({ userId, otp });
export const RefreshTokenBody = z.object({ refreshToken: z.string().min(20).max(200) });
export const ForgetPasswordBody = z.object({ email: z.string().trim().min(1, 'Required').max(254) });
export const ResetPasswordBody = z
  .object({ userId, token: z.string().min(20).max(200), password: Password, confirmPassword: z.string() })
  .refine((b) => b.password === b.confirmPassword, { message: MESSAGES.passwordsDoNotMatch, path: ['confirmPassword'] });
export const VerifyEmailQuery = z.object({ userId, token: z.string().min(20).max(200) });
export const ForgotUsernameBody = z.object({ otp: otp.optional(), otpChannel: OtpChannel.optional() });

export const RegisterKind = z.enum(['applicant', 'organization', 'ambassador']);
export const RegisterBody = z
  .object({
    kind: RegisterKind.default('applicant'),
    /** Slug of `/{organization}/register`; required when kind is organization. */
    organization: z.string().trim().max(80).optional(),
    firstName: z.string().trim().min(1, 'Required').max(80),
    lastName: z.string().trim().min(1, 'Required').max(80),
    username: z.string().trim().min(3, MESSAGES.invalidUsername).max(60).regex(/^[A-Za-z0-9._-]+$/, MESSAGES.invalidUsername),
    email: z.string().trim().email('Required').max(254),
    phoneNumber: Phone,
    password: Password,
    confirmPassword: z.string(),
    preferredLanguage: z.enum(['en', 'es', 'zh', 'bn']).default('en'),
  })
  .refine((b) => b.password === b.confirmPassword, { message: MESSAGES.passwordsDoNotMatch, path: ['confirmPassword'] })
  .refine((b) => b.kind !== 'organization' || Boolean(b.organization), { message: 'Required', path: ['organization'] });
export type RegisterBody = z.input<typeof RegisterBody>;

export const RegisterOtpBody = z.object({ userId, otpChannel: OtpChannel.optional() });
export const VerifyRegisterOtpBody = z.object({ userId, otp });

/** Login answers one of these in `data` when no session is issued yet (spec section 4). */
export interface MfaPendingData {
  userId: string;
  isMfaEnabled: true;
  mfaRequired: true;
}
export interface ProfileNotMatchedData {
  code: 'tenantProfileNotMatched' | 'applicantProfileNotMatched';
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string;
}

/** Impersonation answers the acting user's session and the real user (spec section 4). */
export interface ImpersonationData {
  user: SignedInUser;
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: string;
  realUser: SignedInUser;
  isImpersonating: true;
}

// ProfileMatch (spec section 7)
export const MatchProfileBody = z.object({ email: z.string().trim().email('Required') });
export const MatchTenantProfileBody = z.object({
  email: z.string().trim().email('Required'),
  buildingId: z.string().uuid('Required'),
  unitNumber: z.string().trim().min(1, 'Required').max(20),
  firstName: z.string().trim().min(1, 'Required').max(80),
  lastName: z.string().trim().min(1, 'Required').max(80),
  dateOfBirth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Required'),
});
export const TenantOtpBody = z.object({ userId, tenantRecordId: z.string().uuid(), otpChannel: OtpChannel.default('email') });
export const VerifyTenantOtpBody = z.object({ userId, tenantRecordId: z.string().uuid(), otp });
export const LeaseUpMatchProfileBody = z.object({
  email: z.string().trim().email('Required'),
  firstName: z.string().trim().min(1, 'Required').max(80),
  lastName: z.string().trim().min(1, 'Required').max(80),
  phoneNumber: Phone,
});
export const ValidateLinkProfileOtpBody = z.object({ userId, otp });

// UserProfile and Signature (spec section 7)
export const FONT_SIZES = ['small', 'medium', 'large'] as const;
export type FontSize = (typeof FONT_SIZES)[number];
/** Spec section 5: font size must be small, medium or large; anything else becomes medium. */
export const FontSizeValue = z.unknown().transform((v): FontSize => (FONT_SIZES as readonly unknown[]).includes(v) ? (v as FontSize) : 'medium');
export const ProfileSettingsBody = z.object({
  preferredReadingLanguage: z.enum(['en', 'es', 'zh', 'bn']).optional(),
  fontSize: FontSizeValue.optional(),
  notifyByEmail: z.boolean().optional(),
  notifyBySms: z.boolean().optional(),
});
export interface ProfileSettings {
  preferredReadingLanguage: 'en' | 'es' | 'zh' | 'bn';
  fontSize: FontSize;
  notifyByEmail: boolean;
  notifyBySms: boolean;
  /** The phone number texted STOP: no text reaches it until it texts START. */
  smsOptedOut: boolean;
  hasSignature: boolean;
  signatureKind: 'drawn' | 'typed' | null;
}
export const UpdateProfileBody = z.object({
  firstName: z.string().trim().min(1, 'Required').max(80),
  lastName: z.string().trim().min(1, 'Required').max(80),
  phoneNumber: Phone,
});
export const SignatureBody = z.object({
  signatureBase64: z.string().min(1, MESSAGES.invalidSignatureImage).max(800_000),
  /** True when the image was generated from the typed name rather than drawn. */
  autoGenerateRequest: z.boolean().default(false),
});
export const SignatureOtpBody = z.object({ phoneNumber: z.string().trim().max(30).optional(), otpChannel: OtpChannel.default('sms') });
