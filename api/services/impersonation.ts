import type { FastifyInstance } from 'fastify';
import type { ImpersonationData, LoginData, Role } from '../../domain';
import type { Db } from '../../infra/db/database';
import type { Session } from '../plugins/auth';
import { HttpError } from '../errors';
import { issueTokens, revokeFamily } from './tokens';
import { loadSignedInUser } from './users';

/** Only residents and applicants are ever impersonated; staff accounts are not. */
const IMPERSONABLE: readonly Role[] = ['User', 'Tenant'];

/** Organisations an ambassador serves: those mapped to them and their own. */
export async function ambassadorOrganizations(db: Db, ambassadorId: string): Promise<string[]> {
  const mapped = await db.selectFrom('ambassador_organizations').select('organization_id').where('ambassador_user_id', '=', ambassadorId).execute();
  const own = await db.selectFrom('users').select('organization_id').where('id', '=', ambassadorId).executeTakeFirst();
  return [...new Set([...mapped.map((m) => m.organization_id), ...(own?.organization_id ? [own.organization_id] : [])])];
}

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
 * Spec sections 4 and 6: an ambassador acts as any user of their organisations; a manager, as a
 * manager, for the households of their organisation. The token names both users.
 */
export async function startImpersonation(app: FastifyInstance, session: Session, targetUserId: string, as: 'ambassador' | 'manager'): Promise<ImpersonationData> {
  if (session.realUserId) throw new HttpError(409, 'notAllowedWhileImpersonating');
  if (targetUserId === session.userId) throw new HttpError(403, 'cannotImpersonate');
  const target = await organizationsOfUser(app.db, targetUserId);
  if (!target || target.status !== 'active' || !IMPERSONABLE.includes(target.role)) throw new HttpError(403, 'cannotImpersonate');
  let allowedOrgs: string[];
  if (as === 'ambassador') {
    allowedOrgs = await ambassadorOrganizations(app.db, session.userId);
  } else {
    const manager = await app.db.selectFrom('users').select('organization_id').where('id', '=', session.userId).executeTakeFirst();
    // A manager acts only for a household of their organisation.
    const household = await app.db.selectFrom('households').select('organization_id').where('head_user_id', '=', targetUserId).executeTakeFirst();
    allowedOrgs = manager?.organization_id && household?.organization_id === manager.organization_id ? [manager.organization_id] : [];
  }
  if (!target.orgs.some((o) => allowedOrgs.includes(o))) throw new HttpError(403, 'cannotImpersonate');

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
