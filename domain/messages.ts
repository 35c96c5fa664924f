/**
 * Spec section 8 (error catalogue) and the informational texts of section 8, in English. Each has a
 * stable code; the web app translates by code (`errors.<code>` in every language).
 */
export const MESSAGES = {
  loginFailed: 'Login failed',
  invalidOtp: 'Invalid OTP',
  somethingWentWrong: 'Something went wrong.',
  unexpectedError: 'An unexpected error occurred',
  unauthorized: 'Unauthorized',
  forbidden: 'You do not have permission to do this.',
  notFound: 'Not found',
  profileNotSubmitted: 'Profile not submitted',
  profileIncomplete: 'Profile incomplete',
  appealPeriodPassed: 'Appeal period passed',
  unitsNotOfferedYet: 'Units not offered yet',
  ticNotGeneratedYet: 'TIC not generated yet',
  leaseLetterNotGeneratedYet: 'Lease letter not generated yet',
  opportunityClosed: 'Opportunity closed',
  alreadyApplied: 'Already applied',
  termsNotAgreed: 'You must agree to the terms',
  actionNotAllowedNow: 'This action is not available at the current step',
  applicationClosed: 'This application is closed',
  profileAlreadySubmitted: 'Profile already submitted',
  noOpportunitiesFound: 'No opportunities found for search criteria',
  serviceUnavailable: 'Service temporarily unavailable, please try again',
  // Identity and sessions (issue 3; spec sections 4 and 8)
  tenantProfileNotMatched: 'Tenant Profile not matched',
  applicantProfileNotMatched: 'Applicant Profile not matched',
  mfaRequired: 'OTP verification required. Sending OTP...',
  userIdNotFoundForOtp: 'User ID not found for OTP',
  otpSent: 'OTP sent to your registered contact',
  otpSendFailed: 'Failed to send OTP',
  userIdNotFoundForOtpVerification: 'User ID not found for OTP verification',
  otpVerified: 'OTP verified successfully',
  otpVerificationFailed: 'OTP verification failed',
  otpExpired: 'This code has expired or was already used. Please request a new one.',
  resetTokenCheckFailed: 'Something went wrong while checking token.',
  forgotPasswordFailed: 'Something went wrong',
  emailVerified: 'Your email has been verified. You can now log in.',
  emailVerificationFailed: 'Verification failed.',
  emailVerificationError: 'An error occurred while verifying your email.',
  emailNotVerified: 'Please verify your email address before logging in. We sent you a link.',
  tenantEmailFetchFailed: 'Failed to fetch tenant email address.',
  invalidImpersonationResponse: 'Invalid impersonation response',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  linkExpired: 'This link has expired or was already used.',
  passwordsDoNotMatch: 'Passwords do not match.',
  weakPassword: 'Use at least 8 characters with at least one letter and one number.',
  usernameTaken: 'This username is already taken.',
  emailTaken: 'An account with this email address already exists.',
  organizationNotFound: 'This organization was not found.',
  profileMatchNotFound: 'We could not find a resident with these details. Please check them or contact your managing agent.',
  profileAlreadyMatched: 'This resident profile is already linked to an account.',
  notAllowedWhileImpersonating: 'This is not allowed while acting for another user.',
  signatureOtpRequired: 'Please confirm the code we sent you before changing your signature.',
  invalidSignatureImage: 'Empty signature cannot be saved',
  cannotImpersonate: 'You cannot act for this user.',
  notImpersonating: 'You are not acting for another user.',
  refreshFailed: 'Your session has ended. Please log in again.',
} as const;

export type MessageCode = keyof typeof MESSAGES;

export function isMessageCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.hasOwn(MESSAGES, value);
}
