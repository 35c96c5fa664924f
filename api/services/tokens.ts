import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AuthTokens, Role } from '../../domain';
import { prepared, type Db } from '../../infra/db/database';
import { recordIssuedSecret } from '../../infra/secret-ledger';
import { sessionCache } from './session-cache';
import { DAY } from '../../domain/time';

/** Refresh tokens live 14 days; each use replaces the token with a new one of the same family. */
export const REFRESH_TOKEN_TTL_DAYS = 14;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface SessionSubject {
  userId: string;
  role: Role;
  realUserId?: string | null;
}

async function newRefreshToken(db: Db, subject: SessionSubject, familyId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('refresh_tokens')
    .values({
      family_id: familyId,
      user_id: subject.userId,
      real_user_id: subject.realUserId ?? null,
      token_hash: sha256(token),
      expires_at: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * DAY),
    })
    .execute();
  recordIssuedSecret('refresh_token', token);
  return token;
}

/** A new session: access JWT plus the first refresh token of a new family. */
export async function issueTokens(app: FastifyInstance, subject: SessionSubject, familyId: string = randomUUID()): Promise<AuthTokens & { refreshToken: string }> {
  const claims = { sub: subject.userId, role: subject.role, ...(subject.realUserId ? { realUserId: subject.realUserId, fam: familyId } : { fam: familyId }) };
  const { token, expiresAt } = app.signAccessToken(claims);
  const refreshToken = await newRefreshToken(app.db, subject, familyId);
  return { accessToken: token, refreshToken, accessTokenExpiresAt: expiresAt.toISOString() };
}

export type RotateResult = { ok: true; subject: SessionSubject; familyId: string } | { ok: false; reason: 'unknown' | 'expired' | 'reused' };

/**
 * Rotation with reuse detection: a token is good once. Presenting one that was already used means it
 * was copied, so the whole family (every token of that sign-in) is revoked.
 */
export async function rotateRefreshToken(db: Db, presented: string): Promise<RotateResult> {
  let revokedFamily: string | null = null;
  const result = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', sha256(presented)).forUpdate().executeTakeFirst();
    if (!row) return { ok: false, reason: 'unknown' } as const;
    if (row.used_at || row.revoked_at) {
      await trx.updateTable('refresh_tokens').set({ revoked_at: new Date() }).where('family_id', '=', row.family_id).where('revoked_at', 'is', null).execute();
      revokedFamily = row.family_id;
      return { ok: false, reason: 'reused' } as const;
    }
    if (row.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'expired' } as const;
    await trx.updateTable('refresh_tokens').set({ used_at: new Date() }).where('id', '=', row.id).execute();
    const user = await trx.selectFrom('users').select(['role', 'status']).where('id', '=', row.user_id).executeTakeFirst();
    if (!user || user.status !== 'active') return { ok: false, reason: 'unknown' } as const;
    return { ok: true, subject: { userId: row.user_id, role: user.role, realUserId: row.real_user_id }, familyId: row.family_id } as const;
  });
  // After the commit: a session check that ran before it must not keep the family live in the cache.
  if (revokedFamily) sessionCache.forgetFamily(revokedFamily);
  return result;
}

/** Logout: the family of the session is revoked, and the refresh token presented with it if any. */
export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: new Date() }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
  sessionCache.forgetFamily(familyId);
}

export async function revokeByToken(db: Db, presented: string): Promise<void> {
  const row = await db.selectFrom('refresh_tokens').select('family_id').where('token_hash', '=', sha256(presented)).executeTakeFirst();
  if (row) await revokeFamily(db, row.family_id);
}

/**
 * After a password change every session of the user ends: their own, and those in which they act
 * for a household (an ambassador's or manager's impersonation carries the household as `user_id`
 * and the person as `real_user_id`), which a stolen password could otherwise keep open.
 */
export async function revokeAllForUser(db: Db, userId: string): Promise<void> {
  await revokeSessionsOf(db, userId);
  sessionCache.forgetUser(userId);
}

/**
 * Revokes every session the person holds or acts in, leaving this process's session cache alone: a
 * caller inside a transaction forgets the cache after its commit.
 */
export async function revokeSessionsOf(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date() })
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('real_user_id', '=', userId)]))
    .where('revoked_at', 'is', null)
    .execute();
}

/** Whether the family of an access token is still live (a revoked family's access tokens stop at once). */
export async function isFamilyLive(db: Db, familyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether an access token may still act: its user (and the ambassador or manager behind an
 * impersonation) is active, and its refresh-token family, if any, is not revoked. One query, of one
 * text whatever the token (prepared: every request whose check is not cached runs it).
 */
export async function isSessionLive(db: Db, userId: string, familyId: string | null, realUserId: string | null): Promise<boolean> {
  const ids = realUserId ? [userId, realUserId] : [userId];
  const { rows } = await prepared(sql<{ active: string; family: boolean }>`
    select count(u.id) as active,
           (${familyId}::uuid is null or exists (select 1 from refresh_tokens r where r.family_id = ${familyId}::uuid and r.revoked_at is null)) as family
    from users u where u.id = any(${ids}::uuid[]) and u.status = 'active'`).execute(db);
  const row = rows[0];
  return Number(row?.active ?? 0) === ids.length && Boolean(row?.family);
}
