import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';
import type { OneTimePurpose } from '../../infra/db/schema/identity';
import { recordIssuedSecret } from '../../infra/secret-ledger';

/**
 * One-time codes (6-digit OTPs) and link tokens (email verification, password reset): stored only as
 * keyed hashes, single-use, expiring, with a limited number of wrong tries. Issuing a new code of a
 * purpose voids the older ones, so only the latest message works.
 */
export const OTP_TTL_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;
export const LINK_TTL_HOURS = { verify_email: 48, reset_password: 1 } as const;

let pepper: Buffer | null = null;
/** The hashing key (from DATA_ENCRYPTION_KEY), so a database copy alone cannot test 6-digit guesses. */
export function setCodePepper(key: string): void {
  pepper = Buffer.from(key, 'base64');
}

export function hashCode(value: string): string {
  if (!pepper) throw new Error('setCodePepper was not called');
  return createHmac('sha256', pepper).update(value).digest('hex');
}

type Exec = Db;

export async function issueOtp(db: Exec, userId: string, purpose: OneTimePurpose, subject: string | null = null, ttlMinutes = OTP_TTL_MINUTES): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await storeCode(db, userId, purpose, code, subject, ttlMinutes * 60);
  recordIssuedSecret(purpose, code);
  return code;
}

/** A long random token for links; the link carries it, the database keeps its hash. */
export async function issueLinkToken(db: Exec, userId: string, purpose: OneTimePurpose, ttlSeconds: number, subject: string | null = null): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await storeCode(db, userId, purpose, token, subject, ttlSeconds);
  recordIssuedSecret(purpose, token);
  return token;
}

async function storeCode(db: Exec, userId: string, purpose: OneTimePurpose, value: string, subject: string | null, ttlSeconds: number) {
  await db.updateTable('one_time_codes').set({ used_at: new Date() }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
  await db
    .insertInto('one_time_codes')
    .values({ user_id: userId, purpose, code_hash: hashCode(value), subject, expires_at: new Date(Date.now() + ttlSeconds * 1000) })
    .execute();
}

export type CodeCheck = { ok: true; subject: string | null } | { ok: false; reason: 'invalid' | 'expired' | 'locked' };

/**
 * Checks and consumes the user's latest live code of a purpose. A wrong code counts an attempt; after
 * OTP_MAX_ATTEMPTS the code is dead. Row lock so two concurrent tries cannot both succeed.
 */
export async function consumeCode(db: Db, userId: string, purpose: OneTimePurpose, value: string, peek = false): Promise<CodeCheck> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('one_time_codes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!row || row.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
    if (row.attempts >= OTP_MAX_ATTEMPTS) return { ok: false, reason: 'locked' };
    const expected = Buffer.from(row.code_hash, 'hex');
    const given = Buffer.from(hashCode(value), 'hex');
    if (!timingSafeEqual(expected, given)) {
      await trx.updateTable('one_time_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', row.id).execute();
      return { ok: false, reason: 'invalid' };
    }
    if (!peek) await trx.updateTable('one_time_codes').set({ used_at: new Date() }).where('id', '=', row.id).execute();
    return { ok: true, subject: row.subject };
  });
}

/** Whether a live (unexpired, unused) code of a purpose exists, without consuming it. */
export async function hasLiveCode(db: Db, userId: string, purpose: OneTimePurpose): Promise<boolean> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks every live code of a purpose used (e.g. the MFA challenge once signed in). */
export async function voidCodes(db: Db, userId: string, purpose: OneTimePurpose): Promise<void> {
  await db.updateTable('one_time_codes').set({ used_at: new Date() }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

/** A permission the server grants itself after a validated code (e.g. one signature change); consumed with `consumeCode(db, userId, purpose, userId)`. */
export async function issueGrant(db: Db, userId: string, purpose: OneTimePurpose, ttlSeconds: number): Promise<void> {
  await storeCode(db, userId, purpose, userId, null, ttlSeconds);
}
