import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { ImpersonationData, LoginData, Role } from '../../domain';
import type { Db } from '../../infra/db/database';
import type { Session } from '../session';
import { HttpError } from '../errors';
import { hasLiveGrant } from './access-grant-views';
import { ambassadorOrganizationsSql } from './organizations';
import { issueTokens, revokeFamily } from './tokens';
import { loadSignedInUser } from './users';

export { ambassadorOrganizationIds as ambassadorOrganizations } from './organizations';

/** Only residents and applicants are ever impersonated; staff accounts are not. */
const IMPERSONABLE: readonly Role[] = ['User', 'Tenant'];

/** The organisations a user belongs to: their own, and their household's. */
async function organizationsOfUser(db: Db, userId: string) {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('households as h', 'h.head_user_id', 'u.id')
    .select(['u.role', 'u.status', 'u.organization_id', 'h.organization_id as household_org'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return { role: row.role, status: row.status, orgs: [row.organization_id, row.household_org].filter((o): o is string => Boolean(o)) };
}

async function audit(db: Db, realUserId: string, actingUserId: string, event: 'start' | 'exit') {
  await db.insertInto('impersonation_audit').values({ real_user_id: realUserId, acting_user_id: actingUserId, event }).execute();
}

/**
 * Spec sections 4 and 6: an ambassador acts for a household only while it has granted access to one
 * of the ambassador's organisations; a manager, as a manager, for the households of their
 * organisation. The token names both users.
 */
export async function startImpersonation(app: FastifyInstance, session: Session, targetUserId: string, as: 'ambassador' | 'manager', now = new Date()): Promise<ImpersonationData> {
  if (session.realUserId) throw new HttpError(409, 'notAllowedWhileImpersonating');
  if (targetUserId === session.userId) throw new HttpError(403, 'cannotImpersonate');
  const target = await organizationsOfUser(app.db, targetUserId);
  if (!target || target.status !== 'active' || !IMPERSONABLE.includes(target.role)) throw new HttpError(403, 'cannotImpersonate');
  if (as === 'ambassador') {
    if (!(await hasLiveGrant(app.db, targetUserId, session.userId, now))) throw new HttpError(403, 'accessNotGranted');
  } else {
    const manager = await app.db.selectFrom('users').select('organization_id').where('id', '=', session.userId).executeTakeFirst();
    // A manager acts only for a household of their organisation.
    const household = await app.db.selectFrom('households').select('organization_id').where('head_user_id', '=', targetUserId).executeTakeFirst();
    const allowedOrgs = manager?.organization_id && household?.organization_id === manager.organization_id ? [manager.organization_id] : [];
    if (!target.orgs.some((o) => allowedOrgs.includes(o))) throw new HttpError(403, 'cannotImpersonate');
  }

  const [user, realUser] = await Promise.all([loadSignedInUser(app.db, targetUserId), loadSignedInUser(app.db, session.userId)]);
  if (!user || !realUser) throw new HttpError(403, 'cannotImpersonate');
  const tokens = await issueTokens(app, { userId: targetUserId, role: user.role, realUserId: session.userId });
  await audit(app.db, session.userId, targetUserId, 'start');
  return { user, realUser, isImpersonating: true, ...tokens };
}

/** Exit: the impersonation session is revoked and the real user gets a fresh session of their own. */
export async function exitImpersonation(app: FastifyInstance, session: Session): Promise<LoginData> {
  if (!session.realUserId) throw new HttpError(400, 'notImpersonating');
  if (session.familyId) await revokeFamily(app.db, session.familyId);
  await audit(app.db, session.realUserId, session.userId, 'exit');
  const realUser = await loadSignedInUser(app.db, session.realUserId);
  if (!realUser) throw new HttpError(401, 'unauthorized');
  const tokens = await issueTokens(app, { userId: realUser.userId, role: realUser.role });
  return { ...realUser, ...tokens };
}

/**
 * Checked on every request of an impersonated session (api/plugins/auth.ts): an ambassador's session
 * lasts only while the household's grant to one of their organisations is live, so a revoked or
 * expired grant, or an ambassador taken off the organisation, ends it at its next request. Only
 * exiting stays possible, to get the ambassador's own session back.
 */
export async function assertImpersonationLive(db: Db, session: Session, now = new Date()): Promise<void> {
  if (!session.realUserId) return;
  const row = await db
    .selectFrom('users as real')
    .select([
      'real.role',
      sql<boolean>`exists (select 1 from access_grants g where g.user_id = ${session.userId} and g.status = 'granted'
        and g.expires_at > ${now} and g.organization_id in ${ambassadorOrganizationsSql(session.realUserId)})`.as('live'),
    ])
    .where('real.id', '=', session.realUserId)
    .executeTakeFirst();
  if (!row) throw new HttpError(401, 'unauthorized');
  if (row.role === 'HousingAmbassador' && !row.live) throw new HttpError(403, 'accessGrantEnded');
}
