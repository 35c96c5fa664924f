import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkBatchView, BulkCaseResult } from '../../domain';
import { seedLeaseUpCases, type SeededCase } from '../helpers/bulk-cases';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string };

/**
 * `/api/BulkActions`: who may start, read and cancel a batch, what bad input
 * answers, and a small batch end to end (each case's own refusal, then a change, then a list).
 */
describe('bulk actions API', () => {
  let stack: Stack;
  let manager: Auth & { userId: string };
  let other: Auth;
  let applicant: Auth;
  let opportunityId: string;
  let cases: SeededCase[];

  const call = (method: 'GET' | 'POST', url: string, auth?: Auth, payload?: object) =>
    stack.app.inject({ method, url, headers: auth ? { authorization: auth.authorization } : {}, ...(payload ? { payload } : {}) });
  const settled = (batchId: string) =>
    expect.poll(async () => (await call('GET', `/api/BulkActions/${batchId}`, manager)).json().data.status, { timeout: 60_000 }).toBe('completed');

  beforeAll(async () => {
    stack = await startStack();
    manager = await signIn(stack.app, 'Manager');
    applicant = await signIn(stack.app, 'User');
    other = await otherOrganizationManager(stack);
    const { organization_id } = await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow();
    ({ opportunityId, cases } = await seedLeaseUpCases(stack.db, stack.temporal, { organizationId: organization_id!, taskQueue: stack.config.TEMPORAL_TASK_QUEUE, count: 3 }));
  }, 120_000);
  afterAll(() => stack?.close());

  const ids = () => cases.map((c) => c.applicationId);

  it('refuses anyone but a manager, and bad input, in the error envelope', async () => {
    const body = { action: 'sendReminder', selection: { applicationIds: ids() } };
    expect((await call('POST', '/api/BulkActions', undefined, body)).statusCode).toBe(401);
    const resident = await call('POST', '/api/BulkActions', applicant, body);
    expect(resident.statusCode).toBe(403);
    expect(resident.json()).toMatchObject({ status: 403, data: { code: 'forbidden' } });

    for (const bad of [
      {},
      { action: 'deleteEverything', selection: { applicationIds: ids() } },
      { action: 'reject', selection: { applicationIds: ids() } },
      { action: 'reject', reason: '   ', selection: { applicationIds: ids() } },
      { action: 'requestDocument', selection: { applicationIds: ids() } },
      { action: 'sendReminder', selection: { applicationIds: [] } },
      { action: 'sendReminder', selection: { applicationIds: ['not-a-uuid'] } },
      { action: 'requestDocument', documentType: 'Pay stub', dueAt: 'tomorrow', selection: { applicationIds: ids() } },
    ]) {
      const r = await call('POST', '/api/BulkActions', manager, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json(), JSON.stringify(bad)).toMatchObject({ status: 400, message: expect.any(String), data: { code: 'validation' } });
    }
    const reasonless = await call('POST', '/api/BulkActions', manager, { action: 'reject', reason: '', selection: { applicationIds: ids() } });
    expect(reasonless.json().message).toBe('Please provide a reason.');
    // A filter nothing matches: nothing to do.
    const none = await call('POST', '/api/BulkActions', manager, { action: 'sendReminder', selection: { filter: { opportunityId: randomUUID() } } });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ status: 422, data: { code: 'noCasesSelected' } });
  });

  it("another organisation's manager can neither act on these cases nor see or cancel the batch", async () => {
    const foreign = await call('POST', '/api/BulkActions', other, { action: 'sendReminder', selection: { applicationIds: ids() } });
    expect(foreign.statusCode).toBe(403);
    expect(await stack.db.selectFrom('bulk_batches').select('id').where('organization_id', '!=', (await stack.db.selectFrom('applications').select('organization_id').where('id', '=', ids()[0]!).executeTakeFirstOrThrow()).organization_id).execute()).toEqual([]);
    // A filter only ever reaches the caller's own organisation.
    const filtered = await call('POST', '/api/BulkActions', other, { action: 'sendReminder', selection: { filter: { opportunityId } } });
    expect(filtered.statusCode).toBe(422);

    const mine = await call('POST', '/api/BulkActions', manager, { action: 'sendReminder', selection: { applicationIds: ids() } });
    expect(mine.statusCode).toBe(201);
    const { batchId } = mine.json().data as BulkBatchView;
    for (const [method, url] of [['GET', `/api/BulkActions/${batchId}`], ['GET', `/api/BulkActions/${batchId}/results`], ['POST', `/api/BulkActions/${batchId}/cancel`]] as const) {
      const r = await call(method, url, other);
      expect(r.statusCode, url).toBe(403);
      expect(r.json()).toMatchObject({ status: 403, data: { code: 'forbidden' } });
    }
    expect((await call('GET', '/api/BulkActions', other)).json().data.items).toEqual([]);
    expect((await call('GET', `/api/BulkActions/${randomUUID()}`, manager)).statusCode).toBe(404);
    expect((await call('GET', `/api/BulkActions/${batchId}/results?cursor=forged`, manager)).statusCode).toBe(400);
    await settled(batchId);
    // Nobody owes anything at documentation review: each case refuses the reminder with its own message.
    const results = (await call('GET', `/api/BulkActions/${batchId}/results`, manager)).json().data.items as BulkCaseResult[];
    expect(results).toHaveLength(3);
    expect(results.every((r) => r.status === 'refused' && r.refusal === 'nothingToRemind' && r.applicantName.startsWith('Bulk'))).toBe(true);
    const cancel = await call('POST', `/api/BulkActions/${batchId}/cancel`, manager);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toMatchObject({ status: 409, data: { code: 'bulkBatchFinished' } });
  });

  it('rejects in bulk with one reason where the case allows it, and lists batches newest first by cursor', async () => {
    const requested = (await call('POST', '/api/BulkActions', manager, { action: 'requestDocument', documentType: 'Pay stub', selection: { applicationIds: ids().slice(0, 2) } })).json().data as BulkBatchView;
    await settled(requested.batchId);
    expect((await call('GET', `/api/BulkActions/${requested.batchId}`, manager)).json().data.counts).toMatchObject({ done: 2, refused: 0 });
    // Rejection is only open at decision, screening or income certification: refused here, per case.
    const rejected = (await call('POST', '/api/BulkActions', manager, { action: 'reject', reason: 'Income above the range', selection: { applicationIds: ids() } })).json().data as BulkBatchView;
    await settled(rejected.batchId);
    const refused = (await call('GET', `/api/BulkActions/${rejected.batchId}/results?status=refused`, manager)).json().data.items as BulkCaseResult[];
    expect(refused.map((r) => r.refusal)).toEqual(['actionNotAllowedNow', 'actionNotAllowedNow', 'actionNotAllowedNow']);

    const first = (await call('GET', '/api/BulkActions?limit=2', manager)).json().data;
    expect(first.items.map((b: BulkBatchView) => b.batchId)).toEqual([rejected.batchId, requested.batchId]);
    const next = (await call('GET', `/api/BulkActions?limit=2&cursor=${first.nextCursor}`, manager)).json().data;
    expect(next.items).toHaveLength(1);
    expect(next.nextCursor).toBeNull();
  });
});
