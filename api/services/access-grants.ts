import { ACCESS_CODE_TTL_MINUTES, currentStatus, type AccessGrantView, type AccessSummary, type OtpChannel } from '../../domain';
import { DAY } from '../../domain/time';
import type { Db } from '../../infra/db/database';
import { enqueueNotification } from '../../infra/db/repositories/notification-outbox';
import { HttpError } from '../errors';
import { actOnGrantCase, startGrantCase, type GrantCaseDeps } from './access-grant-case';
import { decideOrThrow, fromState, lockGrant, lockOpenGrant, summary, toState, writeTransition, type GrantRow } from './access-grant-rows';
import { grantView } from './access-grant-views';
import { requireAmbassadorOrganizations } from './organizations';
import { consumeCode, issueOtp } from './otp';
import { contactOf } from './users';

/**
 * Consented access: one `access_grants` row per request. The request and its answer are
 * decided here by the pure rules of domain/access-grant.ts; once granted, the grant is a durable
 * case (workflows/access-grant.ts: notice before the end, expiry, extension, revocation) that
 * projects into the same row. `expires_at` is also checked on every impersonated request
 * (impersonation.ts), so a late timer never lets an ended grant through. The row and its rules:
 * access-grant-rows.ts; what the portal reads of grants: access-grant-views.ts.
 */

/** A resident of one of the ambassador's organisations; anyone else reads as not found. */
async function residentOfAmbassador(db: Db, ambassadorId: string, userId: string) {
  const orgs = await requireAmbassadorOrganizations(db, ambassadorId);
  const user = await db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.role', 'u.status', 'u.organization_id', 'o.name as organization_name', 'o.access_period_days'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!user || !orgs.includes(user.organization_id!) || (user.role !== 'User' && user.role !== 'Tenant')) throw new HttpError(404, 'notFound');
  return { ...user, organization_id: user.organization_id! };
}

async function nameOf(db: Db, userId: string): Promise<string> {
  const u = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', userId).executeTakeFirst();
  return u ? `${u.first_name} ${u.last_name}`.trim() : '';
}

/**
 * The ambassador asks a household of their organisation for access: a pending request and a code
 * sent to the household's email or phone through the outbox. Asking again while it is pending
 * sends a fresh code (the older one stops working).
 */
export async function requestAccess(db: Db, ambassadorId: string, body: { userId: string; channel: OtpChannel }, now: Date): Promise<AccessSummary> {
  const user = await residentOfAmbassador(db, ambassadorId, body.userId);
  if (user.status !== 'active') throw new HttpError(409, 'cannotImpersonate');
  const contact = await contactOf(db, user.id, body.channel);
  if (!contact) throw new HttpError(422, 'noContactForChannel');
  const ambassadorName = await nameOf(db, ambassadorId);
  try {
    return await db.transaction().execute(async (trx) => {
      let row = await lockOpenGrant(trx, user.id, user.organization_id);
      // A request or grant whose time ran out is closed first, so a new request can open.
      if (row && currentStatus(toState(row), now) === 'expired') {
        await writeTransition(trx, row, decideOrThrow(toState(row), 'timer', { type: 'expire' }, now), null);
        row = undefined;
      }
      if (row?.status !== 'pending') {
        const state = decideOrThrow(row ? toState(row) : null, 'ambassador', { type: 'request', periodDays: user.access_period_days }, now);
        row = await trx
          .insertInto('access_grants')
          .values({ ...fromState(state), user_id: user.id, organization_id: user.organization_id, requested_by: ambassadorId, channel: body.channel })
          .returningAll()
          .executeTakeFirstOrThrow();
      } else {
        await trx.updateTable('access_grants').set({ channel: body.channel, requested_by: ambassadorId }).where('id', '=', row.id).execute();
      }
      const code = await issueOtp(trx, user.id, 'access_grant', row.id, ACCESS_CODE_TTL_MINUTES);
      await enqueueNotification(trx, {
        userId: user.id,
        channel: body.channel,
        toAddress: contact.to,
        template: 'access-request',
        language: contact.preferred_language,
        params: { code, minutes: ACCESS_CODE_TTL_MINUTES, ambassadorName, organizationName: user.organization_name, periodDays: row.period_days },
      });
      return summary(row, now);
    });
  } catch (error) {
    // Two ambassadors asking at once: the unique index keeps one open request.
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, 'accessAlreadyRequested');
    throw error;
  }
}

async function notifyChange(db: Db, row: GrantRow, change: 'granted' | 'revoked'): Promise<void> {
  const contact = await contactOf(db, row.user_id, 'email');
  const org = await db.selectFrom('organizations').select('name').where('id', '=', row.organization_id).executeTakeFirst();
  if (!contact || !org) return;
  await enqueueNotification(db, {
    userId: row.user_id,
    channel: 'email',
    toAddress: contact.to,
    template: 'access-changed',
    language: contact.preferred_language,
    params: { change, organizationName: org.name, expiresOn: row.expires_at?.toISOString().slice(0, 10) ?? '' },
  });
}

/** At the ambassador's desk: the household reads out the code, which grants the pending request. */
export async function grantByCode(deps: GrantCaseDeps, ambassadorId: string, body: { userId: string; code: string }, now: Date): Promise<AccessSummary> {
  const { db } = deps;
  const user = await residentOfAmbassador(db, ambassadorId, body.userId);
  const pending = await db
    .selectFrom('access_grants')
    .select('id')
    .where('user_id', '=', user.id)
    .where('organization_id', '=', user.organization_id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (!pending) throw new HttpError(409, 'accessRequestNotPending');
  const check = await consumeCode(db, user.id, 'access_grant', body.code);
  if (!check.ok) throw new HttpError(400, check.reason === 'invalid' ? 'invalidOtp' : 'otpExpired');
  if (check.subject !== pending.id) throw new HttpError(400, 'otpExpired');
  return db.transaction().execute(async (trx) => {
    const row = await lockOpenGrant(trx, user.id, user.organization_id);
    if (!row || row.id !== pending.id) throw new HttpError(409, 'accessRequestNotPending');
    const next = decideOrThrow(toState(row), 'household', { type: 'grant', via: 'code' }, now);
    await writeTransition(trx, row, next, null);
    const updated = { ...row, ...fromState(next), version: row.version + 1 };
    await notifyChange(trx, updated, 'granted');
    await startCase(deps, updated, user.organization_name);
    return summary(updated, now);
  });
}

/**
 * The grant's durable case, started last in the granting transaction: if Temporal refuses, nothing
 * is granted (no grant without its timers). Its first projection waits on the row lock and writes
 * nothing, the row already being at the case's version.
 */
async function startCase(deps: GrantCaseDeps, row: GrantRow, organizationName: string): Promise<void> {
  await startGrantCase(deps, {
    grantId: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    organizationName,
    periodDays: row.period_days,
    grantedAt: row.granted_at!.toISOString(),
    expiresAt: row.expires_at!.toISOString(),
    version: row.version,
  });
}

/** The household answers a pending request in its settings. */
export async function grantInSettings(deps: GrantCaseDeps, householdUserId: string, grantId: string, now: Date): Promise<AccessGrantView> {
  const { db } = deps;
  await db.transaction().execute(async (trx) => {
    const row = await lockGrant(trx, grantId);
    if (!row || row.user_id !== householdUserId) throw new HttpError(404, 'notFound');
    const next = decideOrThrow(toState(row), 'household', { type: 'grant', via: 'settings' }, now);
    await writeTransition(trx, row, next, null);
    const updated = { ...row, ...fromState(next), version: row.version + 1 };
    await notifyChange(trx, updated, 'granted');
    const org = await trx.selectFrom('organizations').select('name').where('id', '=', row.organization_id).executeTakeFirstOrThrow();
    await startCase(deps, updated, org.name);
  });
  return (await grantView(db, grantId, now))!;
}

export type RevokeActor = { kind: 'household' | 'admin' | 'ambassador'; userId: string };

/**
 * Ends a request or a grant at once: the household (its own), an admin, or an ambassador of the
 * organisation. An impersonation in progress ends at its next request.
 */
export async function revokeAccess(deps: Pick<GrantCaseDeps, 'db' | 'temporal'>, actor: RevokeActor, grantId: string, now: Date): Promise<AccessGrantView> {
  const { db } = deps;
  const row = await db.selectFrom('access_grants').selectAll().where('id', '=', grantId).executeTakeFirst();
  if (!row) throw new HttpError(404, 'notFound');
  await checkSide(db, actor, row);
  // A live grant is ended by its case (which tells the household); a request, or a grant from
  // before grants had a case, by the rules on the row below.
  if (currentStatus(toState(row), now) === 'granted') {
    const ended = await actOnGrantCase(deps, grantId, REVOKE_ACTION[actor.kind], { userId: actor.userId, role: actor.kind });
    if (ended) return (await grantView(db, grantId, now))!;
  }
  await db.transaction().execute(async (trx) => {
    const row = await lockGrant(trx, grantId);
    if (!row) throw new HttpError(404, 'notFound');
    const wasGranted = currentStatus(toState(row), now) === 'granted';
    const next = decideOrThrow(toState(row), actor.kind, { type: 'revoke' }, now);
    await writeTransition(trx, row, next, actor.userId);
    if (wasGranted) await notifyChange(trx, { ...row, ...fromState(next) }, 'revoked');
  });
  return (await grantView(db, grantId, now))!;
}

const REVOKE_ACTION = { household: 'Revoke', ambassador: 'Withdraw', admin: 'EndByAdmin' } as const;

/** The household's own grant, or one of the ambassador's organisations (anything else reads as not found). */
async function checkSide(db: Db, actor: RevokeActor, row: GrantRow): Promise<void> {
  if (actor.kind === 'household' && row.user_id !== actor.userId) throw new HttpError(404, 'notFound');
  if (actor.kind === 'ambassador' && !(await requireAmbassadorOrganizations(db, actor.userId)).includes(row.organization_id)) throw new HttpError(404, 'notFound');
}

/**
 * The household keeps its grant for another full period from now (after the notice, or any time
 * while it runs). A grant from before grants had a case gets its case now, with the new end.
 */
export async function extendAccess(deps: GrantCaseDeps, householdUserId: string, grantId: string, now: Date): Promise<AccessGrantView> {
  const { db } = deps;
  const row = await db.selectFrom('access_grants').selectAll().where('id', '=', grantId).executeTakeFirst();
  if (!row) throw new HttpError(404, 'notFound');
  await checkSide(db, { kind: 'household', userId: householdUserId }, row);
  if (currentStatus(toState(row), now) !== 'granted') throw new HttpError(409, 'accessNotActive');
  const extended = await actOnGrantCase(deps, grantId, 'Extend', { userId: householdUserId, role: 'household' });
  if (!extended) {
    await db.transaction().execute(async (trx) => {
      const locked = await lockGrant(trx, grantId);
      if (!locked || currentStatus(toState(locked), now) !== 'granted') throw new HttpError(409, 'accessNotActive');
      const expiresAt = new Date(now.getTime() + locked.period_days * DAY);
      await trx.updateTable('access_grants').set({ expires_at: expiresAt, version: locked.version + 1 }).where('id', '=', grantId).execute();
      const org = await trx.selectFrom('organizations').select('name').where('id', '=', locked.organization_id).executeTakeFirstOrThrow();
      await startCase(deps, { ...locked, expires_at: expiresAt, version: locked.version + 1 }, org.name);
    });
  }
  return (await grantView(db, grantId, now))!;
}

