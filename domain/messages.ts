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
} as const;

export type MessageCode = keyof typeof MESSAGES;

export function isMessageCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.hasOwn(MESSAGES, value);
}
