import { Context } from '@temporalio/activity';
import {
  BULK_CASE_ACTION,
  FINAL_STATUSES,
  type ActorRole,
  type BulkAction,
  type BulkBatchCaseView,
  type BulkCaseStatus,
  type LeaseUpInputs,
  type LeaseUpView,
  type StartBulkBatchInput,
} from '../domain';
import type { Db } from '../infra/db/database';
import { sendCaseUpdate } from '../infra/temporal/case-update';
import { bulkCaseUpdateId, leaseUpWorkflowId } from '../infra/temporal/ids';

/**
 * The activities of a bulk action: the batch's workflow reads its pending cases a page at a time
 * and sends each case the Update a single action would send (through the same sender as the API's
 * case service), with an Update ID made of the batch and the case; the result is written once per case.
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

async function sendToCase(
  db: Db,
  caseId: string,
  action: BulkAction,
  input: BulkCaseInput['input'] & { actor: BulkCaseInput['actor'] },
  updateId: string,
): Promise<{ status: 'done' | 'refused'; refusal: string | null }> {
  const context = Context.current();
  // A worker shutting down (or the batch cancelled) cancels this activity: it stops waiting at
  // once (the cancellation is thrown), and its retry sends the same Update ID, answered with this
  // Update's outcome.
  const outcome = await sendCaseUpdate<LeaseUpInputs, ActorRole, LeaseUpView>(context.client, leaseUpWorkflowId(caseId), BULK_CASE_ACTION[action], input as never, {
    updateId,
    cancelled: context.cancelled,
  });
  if (outcome.kind === 'answered') return { status: 'done', refusal: null };
  // The case's own refusal (its validator or handler), with the spec's message code.
  if (outcome.kind === 'refused') return { status: 'refused', refusal: outcome.refusal.code };
  // No running workflow: the case has finished (it takes no more changes), or it is a lottery
  // application not invited yet (no workflow at all); the read model tells which.
  return { status: 'refused', refusal: (await finishedInReadModel(db, caseId)) ? 'applicationClosed' : 'actionNotAllowedNow' };
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
