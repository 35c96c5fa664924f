import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';

/**
 * A household's total annual income, for the income band of the recertification case (spec
 * section 3). The household-profile income entries are being built in parallel (issue 4): when a
 * `household_income_totals` view (household_id, annual_total) exists it is the source; until then
 * the tenancy's declared annual income is. Returns null when neither is known.
 */
export async function householdIncomeTotal(db: Db, householdId: string): Promise<number | null> {
  const { rows } = await sql<{ exists: boolean }>`select to_regclass('household_income_totals') is not null as exists`.execute(db);
  if (rows[0]?.exists) {
    const total = await sql<{ annual_total: string | null }>`select annual_total from household_income_totals where household_id = ${householdId}`.execute(db);
    const value = total.rows[0]?.annual_total;
    if (value !== undefined && value !== null) return Number(value);
  }
  const tenancy = await db.selectFrom('tenancies').select('declared_annual_income').where('household_id', '=', householdId).executeTakeFirst();
  return tenancy?.declared_annual_income != null ? Number(tenancy.declared_annual_income) : null;
}
