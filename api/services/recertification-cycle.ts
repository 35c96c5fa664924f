import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { ANNUAL_RECERT_LEAD_DAYS, INTERIM_RECERT_DAYS, type RecertKind, type RecertSigner, type StartRecertificationInput } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { recertificationCaseId, recertificationWorkflowId } from '../../workflows/ids';
import { conflict, unprocessable } from '../errors';

export interface RecertDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  blobs?: BlobStore;
}

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
async function signersOf(db: Db, headUserId: string): Promise<RecertSigner[]> {
  const head = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', headUserId).executeTakeFirstOrThrow();
  return [{ id: headUserId, name: `${head.first_name} ${head.last_name}`, isHead: true }];
}

async function start(deps: RecertDeps, household: { id: string; head_user_id: string }, kind: RecertKind, cycle: string, deadline: string, reason?: string) {
  const tenancy = await deps.db.selectFrom('tenancies').select('organization_id').where('household_id', '=', household.id).executeTakeFirst();
  if (!tenancy) throw unprocessable('noTenancy');
  const caseId = recertificationCaseId(household.id, cycle);
  const input: StartRecertificationInput = {
    caseId,
    householdId: household.id,
    organizationId: tenancy.organization_id,
    tenantUserId: household.head_user_id,
    kind,
    deadline,
    signers: await signersOf(deps.db, household.head_user_id),
    ...(reason ? { reason } : {}),
  };
  try {
    await deps.temporal.workflow.start('recertification', {
      workflowId: recertificationWorkflowId(caseId),
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [input],
    });
    return { caseId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { caseId, started: false };
    throw error;
  }
}

/**
 * Opens the annual cycle once the household is inside the 120-day window before its lease
 * anniversary. Safe to call on every request and from a sweep: the case ID makes a second start a no-op.
 */
export async function ensureAnnual(deps: RecertDeps, householdId: string, now = Date.now()) {
  const row = await deps.db
    .selectFrom('tenancies as t')
    .innerJoin('households as h', 'h.id', 't.household_id')
    .select(['h.id', 'h.head_user_id', 't.lease_start'])
    .where('t.household_id', '=', householdId)
    .executeTakeFirst();
  if (!row) return null;
  const deadline = nextAnniversary(row.lease_start, isoDay(now));
  if (Date.parse(deadline) - now > ANNUAL_RECERT_LEAD_DAYS * DAY) return null;
  return start(deps, { id: row.id, head_user_id: row.head_user_id }, 'annual', `annual:${deadline}`, deadline);
}

/** Opens an interim cycle on a reported income or household change (one per household per day). */
export async function startInterim(deps: RecertDeps, householdId: string, reason: string, now = Date.now()) {
  const household = await deps.db.selectFrom('households').select(['id', 'head_user_id']).where('id', '=', householdId).executeTakeFirst();
  if (!household) throw unprocessable('noTenancy');
  const today = isoDay(now);
  const result = await start(deps, household, 'interim', `interim:${today}`, isoDay(now + INTERIM_RECERT_DAYS * DAY), reason);
  if (!result.started) throw conflict('recertificationAlreadyOpen');
  return result;
}
