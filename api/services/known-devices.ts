import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';
import { recordIssuedSecret } from '../../infra/secret-ledger';

/**
 * Devices that signed in before (OWASP "device cookie"): a successful sign-in hands the browser a
 * random device token bound to the account (stored here only as a hash). A sign-in that presents one
 * is not held back by the throttles strangers build up on the account; a token that fails too often
 * is revoked, so a stolen one cannot be used to guess the password.
 */
export const DEVICE_MAX_FAILURES = 10;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** The id of the live device among the presented tokens that belongs to the user, if any. */
export async function knownDevice(db: Db, userId: string, tokens: readonly string[]): Promise<string | null> {
  if (tokens.length === 0) return null;
  const row = await db
    .selectFrom('known_devices')
    .select('id')
    .where('user_id', '=', userId)
    .where('token_hash', 'in', tokens.map(sha256))
    .where('revoked_at', 'is', null)
    .where('failures', '<', DEVICE_MAX_FAILURES)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A new device token after a successful sign-in (the old one of the same device is kept working). */
export async function rememberDevice(db: Db, userId: string, existingId: string | null): Promise<string | null> {
  if (existingId) {
    await db.updateTable('known_devices').set({ last_used_at: new Date(), failures: 0 }).where('id', '=', existingId).execute();
    return null;
  }
  const token = randomBytes(32).toString('base64url');
  await db.insertInto('known_devices').values({ user_id: userId, token_hash: sha256(token) }).execute();
  recordIssuedSecret('device_token', token);
  return token;
}

export async function deviceFailed(db: Db, deviceId: string): Promise<void> {
  await db.updateTable('known_devices').set({ failures: sql`failures + 1` }).where('id', '=', deviceId).execute();
}

/** A new password forgets every device (whoever knew the old one may have signed in). */
export async function forgetDevices(db: Db, userId: string): Promise<void> {
  await db.updateTable('known_devices').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
