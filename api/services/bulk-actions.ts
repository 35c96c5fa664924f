import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { sql } from 'kysely';
import {
  BULK_CASE_STATUSES,
  BULK_MAX_CASES,
  type BulkBatchView,
  type BulkCaseResult,
  type BulkCaseStatus,
  type BulkResultsQuery,
  type CreateBulkBatchBody,
  type MessageCode,
  type Page,
  type PageQuery,
  type StartBulkBatchInput,
} from '../../domain';
import type { Db } from '../../infra/db/database';
import { bulkBatchWorkflowId } from '../../infra/temporal/ids';
import { forbidden, notFound, unprocessable } from '../errors';
import type { Session } from '../session';
import { BULK_BATCH_KIND } from './case-kinds';
import { actOnCase, actorOf, onCaseOf } from './cases';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';
import type { z } from 'zod';

export interface BulkDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/** The manager's organisation, or 403 (a manager not linked to one has nothing to act on). */
async function organizationOf(db: Db, session: Session): Promise<string> {
  const row = await db.selectFrom('users').select('organization_id').where('id', '=', session.userId).executeTakeFirst();
  if (!row?.organization_id) throw forbidden();
  return row.organization_id;
}

/** The batch, if it is of the caller's organisation: 404 when unknown, 403 when another's. */
async function batchOf(db: Db, session: Session, batchId: string) {
  const [organizationId, batch] = await Promise.all([
    organizationOf(db, session),
    db.selectFrom('bulk_batches').selectAll().where('id', '=', batchId).executeTakeFirst(),
  ]);
  if (!batch) throw notFound();
  if (batch.organization_id !== organizationId) throw forbidden();
  return batch;
}

/** The applications a selection names, all of the caller's organisation (403 if any is not). */
async function selected(db: Db, organizationId: string, selection: CreateBulkBatchBody['selection']): Promise<string[]> {
  if ('applicationIds' in selection) {
    const ids = [...new Set(selection.applicationIds)];
    const rows = await db.selectFrom('applications').select('id').where('id', 'in', ids).where('organization_id', '=', organizationId).execute();
    if (rows.length !== ids.length) throw forbidden();
    return ids;
  }
  const { opportunityId, status, step } = selection.filter;
  let query = db.selectFrom('applications').select('id').where('organization_id', '=', organizationId);
  if (opportunityId) query = query.where('opportunity_id', '=', opportunityId);
  if (status) query = query.where('status', '=', status);
  if (step) query = query.where('current_step', '=', step);
  const rows = await query.limit(BULK_MAX_CASES + 1).execute();
  if (rows.length === 0) throw unprocessable('noCasesSelected');
  if (rows.length > BULK_MAX_CASES) throw unprocessable('tooManyCases');
  return rows.map((r) => r.id);
}

/** The lease-up action's input for a bulk action: the same fields a single action takes. */
function caseInput(body: CreateBulkBatchBody): Record<string, unknown> {
  switch (body.action) {
    case 'requestDocument':
      return { documentTypes: [body.documentType], ...(body.note ? { note: body.note } : {}), ...(body.dueAt ? { dueAt: body.dueAt } : {}) };
    case 'sendReminder':
      return body.note ? { note: body.note } : {};
    case 'reject':
      return { reason: body.reason };
  }
}

/**
 * `POST /api/BulkActions`: the selection is written once (one row per case), then the batch's
 * workflow starts; if it cannot start, the batch is removed and the request fails as a whole.
 */
export async function createBatch(deps: BulkDeps, session: Session, body: CreateBulkBatchBody): Promise<BulkBatchView> {
  const organizationId = await organizationOf(deps.db, session);
  const caseIds = await selected(deps.db, organizationId, body.selection);
  const batchId = randomUUID();
  const input = caseInput(body);
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('bulk_batches')
      .values({ id: batchId, organization_id: organizationId, created_by: session.userId, action: body.action, input: JSON.stringify(input), status: 'running', total: caseIds.length })
      .execute();
    await trx.insertInto('bulk_batch_cases').values(caseIds.map((caseId) => ({ batch_id: batchId, case_id: caseId, status: 'pending' as const }))).execute();
  });
  const start: StartBulkBatchInput = { batchId, action: body.action, input, actor: actorOf(session, 'manager') };
  try {
    await deps.temporal.workflow.start('bulkBatch', {
      workflowId: bulkBatchWorkflowId(batchId),
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [start],
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) {
      await deps.db.deleteFrom('bulk_batches').where('id', '=', batchId).execute();
    }
    throw error;
  }
  return batchDetail(deps.db, session, batchId);
}

/** `GET /api/BulkActions/{id}`: the batch and how many of its cases are in each state (the progress). */
export async function batchDetail(db: Db, session: Session, batchId: string): Promise<BulkBatchView> {
  const batch = await batchOf(db, session, batchId);
  const rows = await db.selectFrom('bulk_batch_cases').select(['status', sql<string>`count(*)`.as('n')]).where('batch_id', '=', batchId).groupBy('status').execute();
  const counts = Object.fromEntries(BULK_CASE_STATUSES.map((s) => [s, 0])) as Record<BulkCaseStatus, number>;
  for (const r of rows) counts[r.status] = Number(r.n);
  return {
    batchId: batch.id,
    action: batch.action,
    status: batch.status,
    total: batch.total,
    counts,
    createdAt: new Date(batch.created_at).toISOString(),
    finishedAt: batch.finished_at ? new Date(batch.finished_at).toISOString() : null,
  };
}

const NEWEST: Keyset = { keys: [{ expr: sql.ref('b.created_at'), type: 'timestamptz' }], id: sql.ref('b.id'), idType: 'uuid' };

/** `GET /api/BulkActions`: the organisation's batches, newest first (index on organisation, created_at, id). */
export async function listBatches(db: Db, session: Session, q: z.infer<typeof PageQuery>): Promise<Page<Omit<BulkBatchView, 'counts'>>> {
  const organizationId = await organizationOf(db, session);
  const after = decodeCursor(q.cursor, NEWEST, 'bulk-batches');
  let query = db
    .selectFrom('bulk_batches as b')
    .select(['b.id', 'b.action', 'b.status', 'b.total', 'b.created_at', 'b.finished_at', ...keysetSelections(NEWEST)])
    .where('b.organization_id', '=', organizationId);
  if (after) query = query.where(keysetAfter(NEWEST, 'desc', after));
  const rows = await orderByKeyset(query, NEWEST, 'desc').limit(q.limit + 1).execute();
  return toPage(rows, q.limit, NEWEST, 'bulk-batches', (r) => ({
    batchId: r.id,
    action: r.action,
    status: r.status,
    total: r.total,
    createdAt: new Date(r.created_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  }));
}

const BY_CASE: Keyset = { keys: [], id: sql.ref('c.case_id'), idType: 'uuid' };

/** `GET /api/BulkActions/{id}/results`: each case's result in case order, optionally one outcome only. */
export async function batchResults(db: Db, session: Session, batchId: string, q: BulkResultsQuery): Promise<Page<BulkCaseResult>> {
  const tag = `bulk-results:${q.status ?? 'all'}`;
  // A bad cursor is refused before anything is read, whoever asks (it says nothing about the batch).
  const after = decodeCursor(q.cursor, BY_CASE, tag);
  await batchOf(db, session, batchId);
  let query = db
    .selectFrom('bulk_batch_cases as c')
    .leftJoin('applications as a', 'a.id', 'c.case_id')
    .leftJoin('users as u', 'u.id', 'a.applicant_user_id')
    .select(['c.case_id', 'c.status', 'c.refusal', 'c.finished_at', 'a.log_number', 'u.first_name', 'u.last_name', ...keysetSelections(BY_CASE)])
    .where('c.batch_id', '=', batchId);
  if (q.status) query = query.where('c.status', '=', q.status);
  if (after) query = query.where(keysetAfter(BY_CASE, 'asc', after));
  const rows = await orderByKeyset(query, BY_CASE, 'asc').limit(q.limit + 1).execute();
  return toPage(rows, q.limit, BY_CASE, tag, (r) => ({
    applicationId: r.case_id,
    logNumber: r.log_number,
    applicantName: [r.first_name, r.last_name].filter(Boolean).join(' '),
    status: r.status,
    refusal: (r.refusal as MessageCode | 'validation' | null) ?? null,
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  }));
}

/** `POST /api/BulkActions/{id}/cancel`: the batch stops before its next case; cases not reached are skipped. */
export async function cancelBatch(deps: BulkDeps, session: Session, batchId: string): Promise<BulkBatchView> {
  const batch = await batchOf(deps.db, session, batchId);
  // The batch's row is what the API knows of it: a finished batch is refused without a Temporal call.
  const projected = { batchId, status: batch.status, processed: 0, version: batch.state_version };
  await actOnCase(deps, BULK_BATCH_KIND, batchId, 'Cancel', {}, onCaseOf(session, 'manager', projected));
  return batchDetail(deps.db, session, batchId);
}
