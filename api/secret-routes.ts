/**
 * Routes whose path or query carries a secret (a reset or verification token, an OTP code) or the
 * address of a person: a log line or the impersonation audit holds only their route pattern
 * (infra/logger.ts `safeRequestUrl`). The spec fixes these addresses (section 7), so the secret
 * cannot move to a body. `tests/api/secret-routes.test.ts` checks every route of the API against
 * this list: any route with a token-, code- or OTP-like parameter must be here.
 */
export const SECRET_ROUTES: ReadonlySet<string> = new Set([
  // Reset token in the path (spec: GET check-reset-token/{x}).
  'GET /api/Account/check-reset-token/:x',
  // Email-verification token and user id in the query (spec: verify-email query {userId, token}).
  'GET /api/Account/verify-email',
  // Signature OTP code in the path (spec: validateotp/otp/{x}).
  'GET /api/Signature/validateotp/otp/:x',
  // An email address in the path (spec: forgot-username/{x}).
  'POST /api/Account/forgot-username/:x',
  // Who gets a profile-link code, and by which channel: an account id, logged by pattern like every OTP route.
  'POST /api/ProfileMatch/sendotpforprofilelink/:a/:b',
  // A document address in the query (spec: DeleteFileByUrlAsync, file url as query).
  'DELETE /api/Document/DeleteFileByUrlAsync',
  // A document address in the query (spec: Preview with the file url of the section-3 mapping).
  'GET /api/Document/Preview',
  // RFC 8058 one-click unsubscribe: the alert's unsubscribe token is in the List-Unsubscribe URL's query.
  'POST /api/ListingAlerts/one-click',
  // A signed, short-lived document link: the token is the permission.
  'GET /api/Document/shared/:token',
]);
