import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import type { Role } from '../../domain';
import type { Db } from '../../infra/db/database';
import { DAY } from '../../domain/time';

export async function organizationId(db: Db, slug = 'riverside'): Promise<string> {
  return (await db.selectFrom('organizations').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
}

export async function makeOrganization(db: Db, name: string, kind: 'property_manager' | 'ambassador_organization' = 'property_manager'): Promise<string> {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomUUID().slice(0, 6)}`;
  return (await db.insertInto('organizations').values({ name, slug, kind }).returning('id').executeTakeFirstOrThrow()).id;
}

export const TEST_PASSWORD = 'Helper#2026x';

/** A user written straight to the database (verified, active), able to sign in with TEST_PASSWORD. */
export async function makeUser(db: Db, input: { role: Role; organizationId: string | null; firstName?: string; lastName?: string; username?: string; household?: boolean }): Promise<{ userId: string; username: string }> {
  const username = input.username ?? `u${randomUUID().slice(0, 8)}`;
  const row = await db
    .insertInto('users')
    .values({
      username,
      email: `${username}@example.test`,
      phone_number: '2125550199',
      first_name: input.firstName ?? 'Test',
      last_name: input.lastName ?? username,
      role: input.role,
      password_hash: await hash(TEST_PASSWORD),
      organization_id: input.organizationId,
      email_verified: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (input.household) await db.insertInto('households').values({ head_user_id: row.id, organization_id: input.organizationId, household_size: 1 }).execute();
  return { userId: row.id, username };
}

/** A live grant written straight to the database (for tests of other features that need one). */
export async function grantAccess(db: Db, input: { userId: string; organizationId: string; requestedBy: string; days?: number }): Promise<string> {
  const now = Date.now();
  const row = await db
    .insertInto('access_grants')
    .values({
      user_id: input.userId,
      organization_id: input.organizationId,
      requested_by: input.requestedBy,
      status: 'granted',
      channel: 'email',
      period_days: input.days ?? 90,
      requested_at: new Date(now - DAY),
      pending_until: new Date(now + 6 * DAY),
      granted_at: new Date(now),
      granted_via: 'settings',
      expires_at: new Date(now + (input.days ?? 90) * DAY),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function signInWith(app: FastifyInstance, username: string, password = TEST_PASSWORD): Promise<{ authorization: string; userId: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/Account/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login as ${username} failed: ${response.body}`);
  const { data } = response.json();
  return { authorization: `Bearer ${data.accessToken}`, userId: data.userId };
}
