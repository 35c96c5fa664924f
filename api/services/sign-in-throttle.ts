import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';
import { TooManyAttempts } from '../errors';

/**
 * Throttles that hurt the attacker, not the resident (ASVS V6). A key counts failures in a
 * window; past its free failures each further failure blocks the key for a growing delay
 * (doubling, capped), and a blocked key answers 429 with Retry-After. Keys name an account and an
 * address (`pair`), so a stranger's failures slow that stranger down, not the owner elsewhere; and an
 * account alone (`account`), which only applies to devices that never signed in to it. Counters live
 * in PostgreSQL, shared by every API replica.
 */
export interface ThrottleRule {
  /** Failures within the window before the key has to wait (the last of them starts the first wait). */
  free: number;
  windowMs: number;
  /** The wait after the `free`-th failure; doubles with each further one up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const PAIR_RULE: ThrottleRule = { free: 5, windowMs: 15 * 60_000, firstDelayMs: 30_000, maxDelayMs: 15 * 60_000 };
export const ACCOUNT_RULE: ThrottleRule = { free: 20, windowMs: 15 * 60_000, firstDelayMs: 60_000, maxDelayMs: 15 * 60_000 };
/** Owners are told once per this period of repeated failures on their account. */
export const NOTICE_EVERY_MS = 6 * 3600_000;
/** The failure count on an account that makes a notice to its owner. */
export const NOTICE_AFTER = 5;

/** Milliseconds until the key may try again (0 when it may now). */
export async function blockedFor(db: Db, key: string, now = new Date()): Promise<number> {
  const row = await db.selectFrom('auth_throttles').select('blocked_until').where('key', '=', key).executeTakeFirst();
  const until = row?.blocked_until?.getTime() ?? 0;
  return Math.max(0, until - now.getTime());
}

/** Refuses with 429 and Retry-After while any of the keys is blocked. */
export async function assertNotBlocked(db: Db, keys: string[], now = new Date()): Promise<void> {
  if (keys.length === 0) return;
  const rows = await db.selectFrom('auth_throttles').select('blocked_until').where('key', 'in', keys).execute();
  const wait = Math.max(0, ...rows.map((r) => (r.blocked_until?.getTime() ?? 0) - now.getTime()));
  if (wait > 0) throw new TooManyAttempts(Math.ceil(wait / 1000));
}

/** Counts one failure; returns the failures in the current window. */
export async function recordFailure(db: Db, key: string, rule: ThrottleRule, now = new Date()): Promise<{ failures: number; notifiedAt: Date | null }> {
  const windowStart = new Date(now.getTime() - rule.windowMs);
  const row = await db
    .insertInto('auth_throttles')
    .values({ key, failures: 1, first_failed_at: now, last_failed_at: now, blocked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // A window that passed starts over.
        failures: sql`case when auth_throttles.first_failed_at < ${windowStart} then 1 else auth_throttles.failures + 1 end`,
        first_failed_at: sql`case when auth_throttles.first_failed_at < ${windowStart} then ${now} else auth_throttles.first_failed_at end`,
        last_failed_at: now,
      }),
    )
    .returning(['failures', 'notified_at'])
    .executeTakeFirstOrThrow();
  const past = row.failures - rule.free;
  if (past >= 0) {
    const delay = Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** Math.min(past, 30));
    await db.updateTable('auth_throttles').set({ blocked_until: new Date(now.getTime() + delay) }).where('key', '=', key).execute();
  }
  return { failures: row.failures, notifiedAt: row.notified_at };
}

/** Marks the owner told (so the next notice waits NOTICE_EVERY_MS); false when told recently. */
export async function claimNotice(db: Db, key: string, now = new Date()): Promise<boolean> {
  const row = await db
    .updateTable('auth_throttles')
    .set({ notified_at: now })
    .where('key', '=', key)
    .where((eb) => eb.or([eb('notified_at', 'is', null), eb('notified_at', '<', new Date(now.getTime() - NOTICE_EVERY_MS))]))
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.deleteFrom('auth_throttles').where('key', '=', key).execute();
}
