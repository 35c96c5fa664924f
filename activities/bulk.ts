import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { BULK_CASE_ACTION, FINAL_STATUSES, type BulkAction, type BulkBatchCaseView, type BulkCaseStatus, type StartBulkBatchInput } from '../domain';
import type { Db } from '../infra/db/database';
import { bulkCaseUpdateId, leaseUpWorkflowId } from '../infra/temporal/ids';
import { leaseUpUpdates } from '../workflows/lease-up.messages';

/**
 * The activities of a bulk action (issue 12): the batch's workflow reads its pending cases a page at
 * a time and sends each case the Update a single action would send, with an Update ID made of the
 * batch and the case; the result is written once per case.
 */

/** The next pending cases of a batch in case-id order, after `after` (every case before it is settled). */
export async function bulkCasesPage(db: Db, { batchId, after, limit }: { batchId: string; after?: string; limit: number }): Promise<string[]> {
  let query = db.selectFrom('bulk_batch_cases').select('case_id').where('batch_id', '=', batchId).where('status', '=', 'pending');
  if (after) query = query.where('case_id', '>', after);
  const rows = await query.orderBy('case_id').limit(limit).execute();
  return rows.map((r) => r.case_id);
}

export interface BulkCaseInput extends Pick<StartBulkBatchInput, 'batchId' | 'action' | 'input' | 'actor'> {
  caseId: string;
}

/**
 * One case of the batch. A retry of this activity (a worker restarted mid-call) sends the same
 * Update ID, which Temporal answers with the first call's outcome instead of running it again; and
 * a case whose result is already written is not sent anything.
 */
export async function applyBulkCase(db: Db, { batchId, caseId, action, input, actor }: BulkCaseInput): Promise<{ status: BulkCaseStatus; refusal: string | null }> {
  const row = await db.selectFrom('bulk_batch_cases').select(['status', 'refusal']).where('batch_id', '=', batchId).where('case_id', '=', caseId).executeTakeFirst();
  if (!row) return { status: 'skipped', refusal: null };
  if (row.status !== 'pending') return { status: row.status, refusal: row.refusal };
  const outcome = await sendToCase(db, caseId, action, { ...input, actor }, bulkCaseUpdateId(batchId, caseId));
  await db
    .updateTable('bulk_batch_cases')
    .set({ status: outcome.status, refusal: outcome.refusal, finished_at: new Date() })
    .where('batch_id', '=', batchId)
    .where('case_id', '=', caseId)
    .where('status', '=', 'pending')
    .execute();
  return outcome;
}

async function sendToCase(db: Db, caseId: string, action: BulkAction, args: object, updateId: string): Promise<{ status: 'done' | 'refused'; refusal: string | null }> {
  const update = leaseUpUpdates[BULK_CASE_ACTION[action]] as UpdateDefinition<unknown, [object]>;
  const context = Context.current();
  try {
    // A worker shutting down (or the batch cancelled) cancels this activity: it stops waiting at
    // once, and its retry sends the same Update ID, answered with this Update's outcome.
    await Promise.race([context.client.workflow.getHandle(leaseUpWorkflowId(caseId)).executeUpdate(update, { args: [args], updateId }), context.cancelled]);
    return { status: 'done', refusal: null };
  } catch (error) {
    if (isCancellation(error)) throw error;
    // The case's own refusal (its validator or handler), with the spec's message code.
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type) return { status: 'refused', refusal: error.cause.type };
    // No running workflow: the case has finished (it takes no more changes), or it is a lottery
    // application not invited yet (no workflow at all); the read model tells which.
    if (error instanceof WorkflowNotFoundError || (error instanceof Error && /already completed/i.test(error.message))) {
      return { status: 'refused', refusal: (await finishedInReadModel(db, caseId)) ? 'applicationClosed' : 'actionNotAllowedNow' };
    }
    throw error;
  }
}

/**
 * Writes the batch's state (version-guarded, so a retried or late projection never goes back); once
 * it is cancelled, the cases never reached are skipped in the same transaction.
 */
export async function projectBulkBatch(db: Db, view: BulkBatchCaseView): Promise<void> {
  const final = view.status === 'completed' || view.status === 'cancelled';
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('bulk_batches')
      .set({ status: view.status, state_version: view.version, ...(final ? { finished_at: new Date() } : {}) })
      .where('id', '=', view.batchId)
      .where('state_version', '<', view.version)
      .executeTakeFirst();
    if (view.status === 'cancelled' && Number(updated.numUpdatedRows) > 0) {
      await trx.updateTable('bulk_batch_cases').set({ status: 'skipped', finished_at: new Date() }).where('batch_id', '=', view.batchId).where('status', '=', 'pending').execute();
    }
  });
}

async function finishedInReadModel(db: Db, caseId: string): Promise<boolean> {
  const row = await db.selectFrom('applications').select('status').where('id', '=', caseId).executeTakeFirst();
  return row !== undefined && FINAL_STATUSES.includes(row.status);
}

function isCancellation(error: unknown): boolean {
  return error instanceof Error && error.name === 'CancelledFailure';
}
