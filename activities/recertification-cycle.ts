import { ANNUAL_RECERT_LEAD_DAYS, type RecertSigner, type StartRecertificationInput } from '../domain';
import type { Db } from '../infra/db/database';
import { recertificationCaseId, recertificationWorkflowId } from '../workflows/ids';

const DAY = 86_400_000;
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

/** Head of household and each adult member sign the TIC. Members come from the household profile (issue 4) once it exists. */
export async function signersOf(db: Db, headUserId: string): Promise<RecertSigner[]> {
  const head = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', headUserId).executeTakeFirstOrThrow();
  return [{ id: headUserId, name: `${head.first_name} ${head.last_name}`, isHead: true }];
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
        signers: await signersOf(db, row.head_user_id),
      },
    });
  }
  return starts;
}
