import { ANNUAL_RECERT_LEAD_DAYS, type ManagerTenantHousehold } from '../../domain';
import { DAY } from '../../domain/time';
import type { Db } from '../../infra/db/database';
import { isoDay, nextAnniversary } from '../../infra/db/repositories/recertification-cycle';
import { organizationOf } from './users';

/**
 * The tenant households of the manager's organisation with their latest recertification, for the
 * manager's screen that starts a cycle. The annual window is computed the way the daily sweep
 * computes it, so the screen can say when a refused annual start would be accepted.
 */
export async function managerTenantHouseholds(db: Db, managerId: string, now = Date.now()): Promise<ManagerTenantHousehold[]> {
  const org = await organizationOf(db, managerId);
  if (!org) return [];
  const rows = await db
    .selectFrom('tenancies as t')
    .innerJoin('households as h', 'h.id', 't.household_id')
    .innerJoin('users as u', 'u.id', 'h.head_user_id')
    .select(['h.id', 'h.head_user_id', 'u.first_name', 'u.last_name', 't.building_name', 't.unit_number', 't.lease_start'])
    .where('t.organization_id', '=', org)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .execute();
  if (rows.length === 0) return [];
  // The latest cycle of each household only, not its whole history.
  const cases = await db
    .selectFrom('recertification_cases')
    .distinctOn('household_id')
    .select(['id', 'household_id', 'kind', 'status', 'deadline'])
    .where('organization_id', '=', org)
    .where('household_id', 'in', rows.map((r) => r.id))
    .orderBy('household_id')
    .orderBy('started_at', 'desc')
    .execute();
  const today = isoDay(now);
  return rows.map((r) => {
    const annualDeadline = nextAnniversary(r.lease_start, today);
    const latest = cases.find((c) => c.household_id === r.id);
    return {
      householdId: r.id,
      headUserId: r.head_user_id,
      name: `${r.first_name} ${r.last_name}`,
      building: r.building_name,
      unitNumber: r.unit_number,
      annualDeadline,
      annualOpensOn: isoDay(Date.parse(annualDeadline) - ANNUAL_RECERT_LEAD_DAYS * DAY),
      latestCase: latest ? { caseId: latest.id, kind: latest.kind, status: latest.status, deadline: String(latest.deadline).slice(0, 10) } : null,
    };
  });
}
