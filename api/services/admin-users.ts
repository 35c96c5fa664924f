import type { AdminUserRow, AdminUsersQuery, Page, Role } from '../../domain';
import type { Db } from '../../infra/db/database';
import { HttpError } from '../errors';
import { recordAdminChange } from './admin-audit';
import { sessionCache } from './session-cache';
import { revokeSessionsOf } from './tokens';
import { sendEmailVerification } from './auth';
import { getUserListRow, listUsers } from './user-lists';

type UsersQuery = ReturnType<typeof AdminUsersQuery.parse>;

/** The admin's Users screen: everyone, with each ambassador's organisations. */
export async function listAdminUsers(db: Db, query: UsersQuery): Promise<Page<AdminUserRow>> {
  const page = await listUsers(db, query);
  const ambassadors = page.items.filter((u) => u.role === 'HousingAmbassador').map((u) => u.userId);
  const mapped = ambassadors.length
    ? await db
        .selectFrom('ambassador_organizations as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .select(['m.ambassador_user_id', 'o.id', 'o.name'])
        .where('m.ambassador_user_id', 'in', ambassadors)
        .orderBy('o.name')
        .execute()
    : [];
  return {
    items: page.items.map((u) => ({
      ...u,
      ambassadorOrganizations: mapped.filter((m) => m.ambassador_user_id === u.userId).map((m) => ({ organizationId: m.id, name: m.name })),
    })),
    nextCursor: page.nextCursor,
  };
}

async function targetOf(db: Db, actorId: string, userId: string) {
  // An admin never changes their own role or status here, so nobody locks the last admin out by mistake.
  if (actorId === userId) throw new HttpError(409, 'cannotChangeOwnAccount');
  const user = await db.selectFrom('users').select(['id', 'role', 'status', 'email_verified']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new HttpError(404, 'notFound');
  return user;
}

async function answer(db: Db, userId: string) {
  return (await getUserListRow(db, userId))!;
}

/** A new role takes effect at the next sign-in: tokens carry the role, so the user's sessions end now. */
export async function changeRole(db: Db, actorId: string, userId: string, role: Role) {
  const user = await targetOf(db, actorId, userId);
  if (user.role !== role) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ role }).where('id', '=', userId).execute();
      await revokeSessionsOf(trx, userId);
      await recordAdminChange(trx, actorId, userId, 'roleChanged', { from: user.role, to: role });
    });
    // After the commit, so no session check that ran before it keeps the old session in the cache.
    sessionCache.forgetUser(userId);
  }
  return answer(db, userId);
}

/** A deactivated user cannot sign in, and their existing access tokens stop at once (their families are revoked). */
export async function deactivateUser(db: Db, actorId: string, userId: string) {
  const user = await targetOf(db, actorId, userId);
  if (user.status !== 'deactivated') {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ status: 'deactivated' }).where('id', '=', userId).execute();
      await revokeSessionsOf(trx, userId);
      await recordAdminChange(trx, actorId, userId, 'deactivated');
    });
    // After the commit, so no session check that ran before it keeps the old session in the cache.
    sessionCache.forgetUser(userId);
  }
  return answer(db, userId);
}

export async function reactivateUser(db: Db, actorId: string, userId: string) {
  const user = await targetOf(db, actorId, userId);
  if (user.status !== 'active') {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ status: 'active' }).where('id', '=', userId).execute();
      await recordAdminChange(trx, actorId, userId, 'reactivated');
    });
  }
  return answer(db, userId);
}

export async function resendVerification(db: Db, actorId: string, userId: string) {
  const user = await db.selectFrom('users').select(['id', 'email_verified']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new HttpError(404, 'notFound');
  if (user.email_verified) throw new HttpError(409, 'emailAlreadyVerified');
  await sendEmailVerification(db, userId);
  await recordAdminChange(db, actorId, userId, 'verificationResent');
  return answer(db, userId);
}
