import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Worker } from '@temporalio/worker';
import type { NativeConnection } from '@temporalio/worker';
import type { BulkBatchView, BulkCaseResult } from '../../domain';
import { bulkCaseUpdateId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { createPortalWorker } from '../../worker/create-worker';
import { getLeaseUpView, leaseUpUpdates } from '../../workflows/lease-up.messages';
import { actionCounts, seedLeaseUpCases, type SeededCase } from '../helpers/bulk-cases';
import { signIn, startStack, type Stack } from '../helpers/stack';

const CASES = 510;
const WITHDRAWN = 10;

/**
 * A bulk action holds when a batch over 500 cases completes with progress, survives a worker
 * restart mid-batch with no case changed twice, and reports refusals per case. Real lease-up
 * workflows on the real stack; the worker is this test's own, so it can be stopped mid-batch.
 */
describe('a bulk action over 500 cases', () => {
  let stack: Stack;
  let manager: { authorization: string; userId: string };
  let opportunityId: string;
  let cases: SeededCase[];
  let worker: { worker: Worker; connection: NativeConnection; running: Promise<void> } | null = null;

  const startWorker = async () => {
    // Fixed slots: on a machine already at full CPU the resource-based tuner hands out its minimum
    // (one activity slot), which would run the batch one case at a time.
    const created = await createPortalWorker(stack.config, { db: stack.db, blobs: stack.blobs }, {
      workflowBundle: { codePath: inject('workflowBundlePath') },
      workflowsPath: undefined,
      tuner: {
        workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: 20 },
        activityTaskSlotSupplier: { type: 'fixed-size', numSlots: 40 },
        localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: 40 },
        nexusTaskSlotSupplier: { type: 'fixed-size', numSlots: 1 },
      },
    });
    worker = { ...created, running: created.worker.run() };
  };
  const stopWorker = async () => {
    if (!worker) return;
    worker.worker.shutdown();
    await worker.running;
    await worker.connection.close();
    worker = null;
  };
  const get = async <T>(url: string): Promise<T> => {
    const response = await stack.app.inject({ method: 'GET', url, headers: { authorization: manager.authorization } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as T;
  };
  const create = async (payload: object): Promise<BulkBatchView> => {
    const response = await stack.app.inject({ method: 'POST', url: '/api/BulkActions', headers: { authorization: manager.authorization }, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as BulkBatchView;
  };
  const allResults = async (batchId: string, status: string): Promise<BulkCaseResult[]> => {
    const items: BulkCaseResult[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: BulkCaseResult[]; nextCursor: string | null } = await get(`/api/BulkActions/${batchId}/results?status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  };

  beforeAll(async () => {
    const t0 = Date.now();
    stack = await startStack({ worker: false });
    await startWorker();
    manager = await signIn(stack.app, 'Manager');
    const { organization_id } = await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow();
    ({ opportunityId, cases } = await seedLeaseUpCases(stack.db, stack.temporal, { organizationId: organization_id!, taskQueue: stack.config.TEMPORAL_TASK_QUEUE, count: CASES }));
    // A few households withdraw first: the batch must refuse them, with the case's own message.
    await Promise.all(
      cases.slice(0, WITHDRAWN).map((c) =>
        stack.temporal.workflow.getHandle(leaseUpWorkflowId(c.applicationId)).executeUpdate(leaseUpUpdates.Withdraw, { args: [{ actor: { userId: c.userId, role: 'applicant', impersonatedBy: null } }] }),
      ),
    );
    console.info(`bulk: ${CASES} cases ready after ${Date.now() - t0} ms`);
  }, 240_000);
  afterAll(async () => {
    await stopWorker();
    await stack?.close();
  });

  it('asks every selected household for a document: progress, a worker restart midway, each case changed once, refusals per case', async () => {
    const t0 = Date.now();
    const batch = await create({ action: 'requestDocument', documentType: 'Recent pay stub', note: 'The last two pay stubs, please', selection: { applicationIds: cases.map((c) => c.applicationId) } });
    expect(batch).toMatchObject({ action: 'requestDocument', total: CASES, status: 'running' });
    // Progress the manager can watch: part of the batch settled while it still runs.
    await expect.poll(async () => (await get<BulkBatchView>(`/api/BulkActions/${batch.batchId}`)).counts.done, { timeout: 150_000, interval: 200 }).toBeGreaterThan(120);
    console.info(`bulk: 120 settled after ${Date.now() - t0} ms`);
    // The worker stops with cases in flight and starts again: the batch carries on where it was.
    await stopWorker();
    const midway = await get<BulkBatchView>(`/api/BulkActions/${batch.batchId}`);
    expect(midway.status).toBe('running');
    expect(midway.counts.pending).toBeGreaterThan(0);
    expect(midway.counts.done + midway.counts.refused).toBeGreaterThan(0);
    await startWorker();
    await expect.poll(async () => (await get<BulkBatchView>(`/api/BulkActions/${batch.batchId}`)).status, { timeout: 150_000, interval: 500 }).toBe('completed');
    console.info(`bulk: completed after ${Date.now() - t0} ms`);

    // Every case once: a case sent its Update a second time would have refused it ('not available
    // at the current step'), so exactly the withdrawn ones are refused, and each history holds one request.
    const done = await get<BulkBatchView>(`/api/BulkActions/${batch.batchId}`);
    expect(done.counts).toEqual({ pending: 0, done: CASES - WITHDRAWN, refused: WITHDRAWN, skipped: 0 });
    const refused = await allResults(batch.batchId, 'refused');
    expect(refused.map((r) => r.applicationId).sort()).toEqual(cases.slice(0, WITHDRAWN).map((c) => c.applicationId).sort());
    expect(refused.map((r) => r.refusal)).toEqual(Array.from({ length: WITHDRAWN }, () => 'applicationClosed'));
    expect(refused.every((r) => r.logNumber && r.applicantName.startsWith('Bulk'))).toBe(true);
    await expect
      .poll(async () => [...(await actionCounts(stack.db, opportunityId, 'RequestAdditionalDocuments')).values()].filter((n) => n === 1).length, { timeout: 60_000 })
      .toBe(CASES - WITHDRAWN);
    expect([...(await actionCounts(stack.db, opportunityId, 'RequestAdditionalDocuments')).values()].some((n) => n > 1)).toBe(false);

    // What makes a retried case harmless: the same Update ID is answered with the first outcome,
    // also for an action the case would take again (a reminder).
    const target = cases[WITHDRAWN]!;
    const handle = stack.temporal.workflow.getHandle(leaseUpWorkflowId(target.applicationId));
    const remind = () =>
      handle.executeUpdate(leaseUpUpdates.SendReminder, { args: [{ actor: { userId: manager.userId, role: 'manager', impersonatedBy: null } }], updateId: bulkCaseUpdateId(randomUUID(), target.applicationId) });
    const reminders = async () => (await handle.query(getLeaseUpView)).history.filter((h) => h.action === 'SendReminder').length;
    // The batch's own Update ID again (even for another action): answered with its first outcome, nothing changes.
    await handle.executeUpdate(leaseUpUpdates.SendReminder, { args: [{ actor: { userId: manager.userId, role: 'manager', impersonatedBy: null } }], updateId: bulkCaseUpdateId(batch.batchId, target.applicationId) });
    expect(await reminders()).toBe(0);
    expect((await handle.query(getLeaseUpView)).history.filter((h) => h.action === 'RequestAdditionalDocuments')).toHaveLength(1);
    // One new ID sent twice: one reminder; another ID: a second one.
    const once = bulkCaseUpdateId(randomUUID(), target.applicationId);
    const send = () => handle.executeUpdate(leaseUpUpdates.SendReminder, { args: [{ actor: { userId: manager.userId, role: 'manager', impersonatedBy: null } }], updateId: once });
    await send();
    await send();
    expect(await reminders()).toBe(1);
    await remind();
    expect(await reminders()).toBe(2);
  }, 420_000);
});
