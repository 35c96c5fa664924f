import { sql } from 'kysely';
import type {
  AmbassadorDashboard,
  AmbassadorUserDashboard,
  AmbassadorUserRow,
  AmbassadorUsersQuery,
  ApplicationStatus,
  Page,
} from '../../domain';
import type { Db } from '../../infra/db/database';
import { HttpError } from '../errors';
import { accessSummaries, hasLiveGrant } from './access-grant-views';
import { requireAmbassadorOrganizations } from './organizations';
import { getUserListRow, listUsers } from './user-lists';

/** The people ambassadors serve: residents and applicants (staff accounts are never listed to them). */
const SERVED_ROLES = ['User', 'Tenant'] as const;

type UsersQuery = ReturnType<typeof AmbassadorUsersQuery.parse>;

/** Spec getambessdordashboard/{id}: counts over the users of the ambassador's organisations, from read models. */
export async function ambassadorDashboard(db: Db, ambassadorId: string, now: Date): Promise<AmbassadorDashboard> {
  const orgs = await requireAmbassadorOrganizations(db, ambassadorId);
  const served = db.selectFrom('users as u').where('u.organization_id', 'in', orgs).where('u.role', 'in', SERVED_ROLES);
  const [users, complete, applications, recertifications, access] = await Promise.all([
    served
      .select([
        sql<string>`count(*)`.as('total'),
        sql<string>`count(*) filter (where u.status = 'active')`.as('active'),
        sql<string>`count(*) filter (where u.status = 'deactivated')`.as('deactivated'),
        sql<string>`count(*) filter (where u.email_verified)`.as('verified'),
      ])
      .executeTakeFirstOrThrow(),
    served
      .innerJoin('households as h', 'h.head_user_id', 'u.id')
      .select(sql<string>`count(*)`.as('n'))
      .where('h.profile_completion', '>=', 100)
      .executeTakeFirstOrThrow(),
    served
      .innerJoin('households as h', 'h.head_user_id', 'u.id')
      .innerJoin('applications as a', 'a.household_id', 'h.id')
      .select(['a.status', sql<string>`count(*)`.as('n')])
      .groupBy('a.status')
      .execute(),
    served
      .innerJoin('households as h', 'h.head_user_id', 'u.id')
      .innerJoin('recertification_cases as rc', 'rc.household_id', 'h.id')
      .select(sql<string>`count(*)`.as('n'))
      .where('rc.status', '=', 'active')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('access_grants')
      .select([
        sql<string>`count(*) filter (where status = 'pending' and pending_until > ${now})`.as('pending'),
        sql<string>`count(*) filter (where status = 'granted' and expires_at > ${now})`.as('granted'),
      ])
      .where('organization_id', 'in', orgs)
      .where('status', 'in', ['pending', 'granted'])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    organizations: orgs.length,
    users: {
      total: Number(users.total),
      active: Number(users.active),
      deactivated: Number(users.deactivated),
      emailVerified: Number(users.verified),
      profilesComplete: Number(complete.n),
    },
    applications: Object.fromEntries(applications.map((a) => [a.status, Number(a.n)])) as Partial<Record<ApplicationStatus, number>>,
    recertificationsDue: Number(recertifications.n),
    access: { pending: Number(access.pending), granted: Number(access.granted) },
  };
}

/** Spec getambessdorUsers/{id}: the users of the ambassador's organisations with each one's access status. */
export async function ambassadorUsers(db: Db, ambassadorId: string, query: UsersQuery, now: Date): Promise<Page<AmbassadorUserRow>> {
  const orgs = await requireAmbassadorOrganizations(db, ambassadorId);
  if (query.organizationId && !orgs.includes(query.organizationId)) throw new HttpError(404, 'notFound');
  const page = await listUsers(db, { ...query, organizationIds: query.organizationId ? [query.organizationId] : orgs, roles: SERVED_ROLES });
  const access = await accessSummaries(db, page.items.map((u) => ({ userId: u.userId, organizationId: u.organizationId })), now);
  return { items: page.items.map((u) => ({ ...u, access: access.get(u.userId) ?? null })), nextCursor: page.nextCursor };
}

/**
 * A user's dashboard as the ambassador sees it (/{ambassdorId}/ambassdor/user/{id}/dashboard): the
 * list's columns always; the household's profile, applications and recertification only while the
 * household grants access to the organisation.
 */
export async function ambassadorUserDashboard(db: Db, ambassadorId: string, userId: string, now: Date): Promise<AmbassadorUserDashboard> {
  const orgs = await requireAmbassadorOrganizations(db, ambassadorId);
  const row = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.organization_id'])
    .where('u.id', '=', userId)
    .where('u.organization_id', 'in', orgs)
    .where('u.role', 'in', SERVED_ROLES)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'notFound');
  const user = (await getUserListRow(db, userId))!;
  const access = (await accessSummaries(db, [{ userId, organizationId: row.organization_id! }], now)).get(userId) ?? null;
  if (!(await hasLiveGrant(db, userId, ambassadorId, now))) return { user, access, household: null };

  const household = await db.selectFrom('households').select(['id', 'profile_completion', 'household_size']).where('head_user_id', '=', userId).executeTakeFirst();
  if (!household) return { user, access, household: { profileCompletion: 0, householdSize: 0, applications: [], recertification: null } };
  const [applications, recert] = await Promise.all([
    db
      .selectFrom('applications as a')
      .innerJoin('opportunities as op', 'op.id', 'a.opportunity_id')
      .select(['a.id', 'op.name', 'a.status', 'a.applied_at'])
      .where('a.household_id', '=', household.id)
      .orderBy('a.applied_at', 'desc')
      .limit(20)
      .execute(),
    db
      .selectFrom('recertification_cases')
      .select(['stage', 'status', 'deadline'])
      .where('household_id', '=', household.id)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    user,
    access,
    household: {
      profileCompletion: household.profile_completion,
      householdSize: household.household_size,
      applications: applications.map((a) => ({ applicationId: a.id, opportunityName: a.name, status: a.status, appliedAt: new Date(a.applied_at).toISOString() })),
      recertification: recert ? { stage: recert.stage, status: recert.status, deadline: recert.deadline } : null,
    },
  };
}
