import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { INTERIM_RECERT_DAYS, initialRecertState, recertView, type RecertKind, type StartRecertificationInput } from '../../domain';
import { dueAnnualRecertifications, isoDay, signersOf } from '../../infra/db/repositories/recertification-cycle';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { recertificationCaseId, recertificationWorkflowId } from '../../infra/temporal/ids';
import { conflict, unprocessable } from '../errors';
import { DAY } from '../../domain/time';

export interface RecertDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  blobs?: BlobStore;
}

async function start(deps: RecertDeps, input: StartRecertificationInput, now = Date.now()): Promise<{ caseId: string; started: boolean }> {
  // The read-model row first (the caller's role on the case comes from it), then the workflow;
  // its first projection (state version 1 and up) overwrites this placeholder.
  const view = recertView(initialRecertState(input, new Date(now).toISOString()), now);
  await deps.db
    .insertInto('recertification_cases')
    .values({
      id: input.caseId,
      workflow_id: recertificationWorkflowId(input.caseId),
      household_id: input.householdId,
      organization_id: input.organizationId,
      tenant_user_id: input.tenantUserId,
      kind: input.kind,
      deadline: input.deadline,
      stage: view.stage,
      status: view.status,
      profile_locked: false,
      tenant_signed: false,
      pending_tasks: '[]',
      started_at: new Date(now),
      state_updated_at: new Date(now),
      state_version: 0,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  try {
    await deps.temporal.workflow.start('recertification', {
      workflowId: recertificationWorkflowId(input.caseId),
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [input],
    });
    return { caseId: input.caseId, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { caseId: input.caseId, started: false };
    await deps.db.deleteFrom('recertification_cases').where('id', '=', input.caseId).where('state_version', '=', 0).execute();
    throw error;
  }
}

/**
 * Opens the household's annual cycle if it is inside the 120-day window before its lease
 * anniversary (the daily sweep does the same for every tenancy). Safe to call on every request:
 * the case ID makes a second start a no-op.
 */
export async function ensureAnnual(deps: RecertDeps, householdId: string, now = Date.now()) {
  const [due] = await dueAnnualRecertifications(deps.db, { now, householdId });
  return due ? start(deps, due.input) : null;
}

/** Opens an interim cycle on a reported income or household change (one per household per day). */
export async function startInterim(deps: RecertDeps, householdId: string, reason: string, now = Date.now()) {
  const household = await deps.db.selectFrom('households').select(['id', 'head_user_id']).where('id', '=', householdId).executeTakeFirst();
  const tenancy = await deps.db.selectFrom('tenancies').select('organization_id').where('household_id', '=', householdId).executeTakeFirst();
  if (!household || !tenancy) throw unprocessable('noTenancy');
  const kind: RecertKind = 'interim';
  const result = await start(deps, {
    caseId: recertificationCaseId(householdId, `interim:${isoDay(now)}`),
    householdId,
    organizationId: tenancy.organization_id,
    tenantUserId: household.head_user_id,
    kind,
    deadline: isoDay(now + INTERIM_RECERT_DAYS * DAY),
    signers: await signersOf(deps.db, household.head_user_id, householdId, isoDay(now)),
    reason,
  });
  if (!result.started) throw conflict('recertificationAlreadyOpen');
  return result;
}
