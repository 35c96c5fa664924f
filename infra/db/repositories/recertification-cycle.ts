import { ANNUAL_RECERT_LEAD_DAYS, type RecertSigner, type StartRecertificationInput } from '../../../domain';
import type { Db } from '../database';
import { recertificationCaseId, recertificationWorkflowId } from '../../temporal/ids';
import { DAY } from '../../../domain/time';

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The next lease anniversary on or after `today` ('YYYY-MM-DD'; 29 Feb falls on 28 Feb in other years). */
export function nextAnniversary(leaseStart: string, today: string): string {
  const [, m, d] = leaseStart.split('-').map(Number) as [number, number, number];
  for (let year = Number(today.slice(0, 4)); ; year++) {
    const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
    const candidate = isoDay(Date.UTC(year, m - 1, Math.min(d, lastDay)));
    if (candidate >= today && candidate > leaseStart) return candidate;
  }
}

/**
 * Who signs the TIC (spec section 4): the head of household (the tenant's account) and each adult
 * member of the household profile (18 or older on `today`; the head's own member row is the account).
 */
export async function signersOf(db: Db, headUserId: string, householdId: string, today: string): Promise<RecertSigner[]> {
  const head = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', headUserId).executeTakeFirstOrThrow();
  const adultBorn = `${Number(today.slice(0, 4)) - 18}${today.slice(4)}`;
  const members = await db
    .selectFrom('household_members')
    .select(['id', 'full_name'])
    .where('household_id', '=', householdId)
    .where('head_of_household', '=', false)
    .where('date_of_birth', '<=', adultBorn)
    .orderBy('created_at')
    .execute();
  return [
    { id: headUserId, name: `${head.first_name} ${head.last_name}`, isHead: true },
    ...members.map((m) => ({ id: m.id, name: m.full_name, isHead: false })),
  ];
}

export interface CycleStart {
  workflowId: string;
  input: StartRecertificationInput;
}

/**
 * The annual cycles that are open at `now` (inside the 120-day window before a lease anniversary),
 * for one household or for every tenancy. Starting them is idempotent: the case ID is derived from
 * household and anniversary, and a second start of the same ID is refused by Temporal.
 */
export async function dueAnnualRecertifications(db: Db, { now, householdId }: { now: number; householdId?: string }): Promise<CycleStart[]> {
  let query = db
    .selectFrom('tenancies as t')
    .innerJoin('households as h', 'h.id', 't.household_id')
    .select(['h.id', 'h.head_user_id', 't.organization_id', 't.lease_start']);
  if (householdId) query = query.where('t.household_id', '=', householdId);
  const starts: CycleStart[] = [];
  for (const row of await query.execute()) {
    const deadline = nextAnniversary(row.lease_start, isoDay(now));
    if (Date.parse(deadline) - now > ANNUAL_RECERT_LEAD_DAYS * DAY) continue;
    const caseId = recertificationCaseId(row.id, `annual:${deadline}`);
    starts.push({
      workflowId: recertificationWorkflowId(caseId),
      input: {
        caseId,
        householdId: row.id,
        organizationId: row.organization_id,
        tenantUserId: row.head_user_id,
        kind: 'annual',
        deadline,
        signers: await signersOf(db, row.head_user_id, row.id, isoDay(now)),
      },
    });
  }
  return starts;
}
