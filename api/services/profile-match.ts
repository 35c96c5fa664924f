import type { Db } from '../../infra/db/database';
import { HttpError } from '../errors';

/** Only accounts still waiting for a match may be matched: signed-in tenants with a household are done. */
export async function unmatchedTenant(db: Db, userId: string) {
  const user = await db
    .selectFrom('users as u')
    .leftJoin('households as h', 'h.head_user_id', 'u.id')
    .select(['u.id', 'u.role', 'u.email', 'u.organization_id', 'h.id as household_id'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!user || user.role !== 'Tenant' || user.household_id) throw new HttpError(404, 'profileMatchNotFound');
  return user;
}

const norm = (s: string) => s.trim().toLowerCase();

/**
 * Spec section 7 MatchTenantProfile: the resident row of this building and unit whose name and date of
 * birth match, not yet linked to another account, in the organisation the account registered with.
 */
export async function findRosterMatch(db: Db, input: { organizationId: string | null; buildingId: string; unitNumber: string; firstName: string; lastName: string; dateOfBirth: string }) {
  const rows = await db
    .selectFrom('tenant_roster')
    .selectAll()
    .where('building_id', '=', input.buildingId)
    .where('date_of_birth', '=', input.dateOfBirth)
    .execute();
  const row = rows.find(
    (r) =>
      norm(r.unit_number) === norm(input.unitNumber) &&
      norm(r.first_name) === norm(input.firstName) &&
      norm(r.last_name) === norm(input.lastName) &&
      (!input.organizationId || r.organization_id === input.organizationId),
  );
  if (!row) throw new HttpError(404, 'profileMatchNotFound');
  if (row.linked_user_id) throw new HttpError(409, 'profileAlreadyMatched');
  return row;
}

/** Links the account to the resident row: the household is created in the row's organisation. */
export async function linkTenant(db: Db, userId: string, rosterId: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('tenant_roster').selectAll().where('id', '=', rosterId).forUpdate().executeTakeFirst();
    if (!row) throw new HttpError(404, 'profileMatchNotFound');
    if (row.linked_user_id && row.linked_user_id !== userId) throw new HttpError(409, 'profileAlreadyMatched');
    await trx.updateTable('tenant_roster').set({ linked_user_id: userId }).where('id', '=', rosterId).execute();
    await trx.updateTable('users').set({ organization_id: row.organization_id }).where('id', '=', userId).execute();
    const existing = await trx.selectFrom('households').select('id').where('head_user_id', '=', userId).executeTakeFirst();
    if (existing) return existing.id;
    const household = await trx
      .insertInto('households')
      .values({ head_user_id: userId, organization_id: row.organization_id, household_size: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return household.id;
  });
}
