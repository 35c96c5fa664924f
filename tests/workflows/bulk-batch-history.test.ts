import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartBulkBatchInput } from '../../domain';
import { bulkBatchWorkflowId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { bulkBatchUpdates } from '../../workflows/bulk-batch.messages';
import { recordHistory } from '../helpers/histories';
import { startWorkflowEnv } from '../helpers/workflow-env';

type Env = Awaited<ReturnType<typeof startWorkflowEnv>>;

/**
 * The bulk-batch workflow on its own: a small batch over real lease-up cases, with
 * the recorded history the replay test replays (RECORD_HISTORIES=1).
 */
describe('bulk-batch workflow', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startWorkflowEnv();
  }, 120_000);
  afterAll(() => env?.close());

  it('sends each case its Update once, records a result per case, and refuses a cancel once finished', async () => {
    const inputs = await Promise.all([env.applicationInput(), env.applicationInput(), env.applicationInput()]);
    await Promise.all(inputs.map((input) => env.client.workflow.start('leaseUpApplication', { workflowId: leaseUpWorkflowId(input.applicationId), taskQueue: env.taskQueue, args: [input] })));
    const manager = await env.db.selectFrom('users').select('id').where('username', '=', 'manager').executeTakeFirstOrThrow();
    const batchId = randomUUID();
    await env.db.insertInto('bulk_batches').values({ id: batchId, organization_id: inputs[0]!.organizationId, created_by: manager.id, action: 'reject', input: '{}', status: 'running', total: 4 }).execute();
    // Three cases and one id with no workflow (a lottery application never invited): refused, not failed.
    const caseIds = [...inputs.map((i) => i.applicationId), randomUUID()];
    await env.db.insertInto('bulk_batch_cases').values(caseIds.map((caseId) => ({ batch_id: batchId, case_id: caseId, status: 'pending' as const }))).execute();
    const start: StartBulkBatchInput = { batchId, action: 'requestDocument', input: { documentTypes: ['Pay stub'] }, actor: { userId: manager.id, role: 'manager', impersonatedBy: null } };
    const handle = await env.client.workflow.start('bulkBatch', { workflowId: bulkBatchWorkflowId(batchId), taskQueue: env.taskQueue, args: [start] });
    expect(await handle.result()).toBe('completed');

    const rows = await env.db.selectFrom('bulk_batch_cases').select(['case_id', 'status', 'refusal']).where('batch_id', '=', batchId).execute();
    expect(rows.filter((r) => r.status === 'done').map((r) => r.case_id).sort()).toEqual(inputs.map((i) => i.applicationId).sort());
    expect(rows.filter((r) => r.status === 'refused')).toEqual([{ case_id: caseIds[3], status: 'refused', refusal: 'actionNotAllowedNow' }]);
    expect(await env.db.selectFrom('bulk_batches').select(['status', 'finished_at']).where('id', '=', batchId).executeTakeFirstOrThrow()).toMatchObject({ status: 'completed', finished_at: expect.any(Date) });
    // A finished batch takes no cancel (the API answers 'already finished' from the read model first).
    await expect(handle.executeUpdate(bulkBatchUpdates.Cancel, { args: [{ actor: { userId: manager.id, role: 'manager', impersonatedBy: null } }] })).rejects.toThrow();
    await recordHistory('bulk-batch-completed', handle);
  }, 120_000);
});
