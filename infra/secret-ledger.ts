import { appendFileSync } from 'node:fs';

/**
 * Test-only record of the secrets the product hands out (OTP codes, reset and verification tokens,
 * refresh and device tokens, identifiers entered), so the log scan of `npm test` (tests/log-scan.mjs)
 * can look for each exact value in the API's logs. Off unless PORTAL_SECRET_LEDGER names a file, and
 * never in production.
 */
export function recordIssuedSecret(kind: string, value: string): void {
  const file = process.env.PORTAL_SECRET_LEDGER;
  if (!file || process.env.NODE_ENV === 'production') return;
  appendFileSync(file, `${JSON.stringify({ kind, value })}\n`);
}
