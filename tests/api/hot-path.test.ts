import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeUser } from '../helpers/lease-up-users';
import { lotteryWorkflowId } from '../../domain';
import { seedDemoLottery } from '../../infra/seed-lottery';
import { ensureLotteries } from '../../worker/lotteries';
import { lotteryMessages } from '../../workflows/lottery.messages';
import { countingApi, type CountingApi } from '../helpers/counting-api';
import { demoAccount, eventually, signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId?: string };

/** The statements of a case's projection, in its one transaction: the case's lock, its row, its inbox tasks. */
const PROJECTION = ['RawNode', 'InsertQueryNode', 'RawNode'];

/**
 * What one authenticated request costs on the hot path. A second API over the same
 * stack counts every database query it sends (a kysely plugin on its handle) and every Temporal call
 * (a client interceptor): an action is one query, one Update (no Query first) and the answered view's
 * projection (one transaction: the case's lock, its row, its inbox tasks), an application's detail one
 * query and one Query sent together, once the token's session check is cached; logout and
 * deactivation still stop the token at once.
 */
describe('the hot path of an authenticated request', () => {
  let stack: Stack;
  let api: FastifyInstance;
  let manager: Auth;
  let counting: CountingApi;

  beforeAll(async () => {
    stack = await startStack();
    counting = await countingApi(stack);
    api = counting.api;
    manager = await signIn(stack.app, 'Manager');
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  /** One request on the counting API, with what it cost. */
  async function measured(method: 'GET' | 'POST', url: string, who: Auth, payload?: object) {
    counting.reset();
    const response = await api.inject({ method, url, headers: { authorization: who.authorization }, ...(payload ? { payload } : {}) });
    return { response, queries: [...counting.queries], temporal: [...counting.temporalCalls] };
  }

  async function appliedApplication() {
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('selection', '!=', 'lottery').orderBy('name').executeTakeFirstOrThrow();
    const applicant = await makeUser(stack, { role: 'User' });
    const applied = await stack.app.inject({
      method: 'POST',
      url: '/api/LeaseUpApplication/apply',
      headers: { authorization: applicant.authorization },
      payload: { opportunityId: opportunity.id, householdSize: 2, householdIncome: 50_000, agreeToTerms: true },
    });
    expect(applied.statusCode).toBe(201);
    const id = applied.json().data.applicationId as string;
    const submitted = await stack.app.inject({ method: 'POST', url: `/api/Household/submit-applicant-profile/${id}`, headers: { authorization: applicant.authorization } });
    expect(submitted.statusCode).toBe(200);
    await eventually(async () => (await stack.db.selectFrom('applications').select('view').where('id', '=', id).executeTakeFirst())?.view);
    return { applicant, id };
  }

  it('an action is one database query, one Update and its projection; a detail one query and one Query; a refusal writes nothing', async () => {
    const { applicant, id } = await appliedApplication();
    // First request of a token in this process: the session check, then the case.
    const first = await measured('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, applicant);
    expect(first.response.statusCode).toBe(200);
    expect(first.queries.length).toBeLessThanOrEqual(2);

    const detail = await measured('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, manager);
    expect(detail.response.statusCode).toBe(200);
    expect(detail.response.json().data).toMatchObject({ viewerRole: 'manager', opportunityName: expect.any(String), applicantFullName: expect.stringMatching(/^Second /) });
    // The manager's token was checked at sign-in's first use above (signIn's own app shares the process cache)
    // or is checked now: at most the session check plus the case.
    const again = await measured('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, manager);
    expect(again.response.json().data).toEqual(detail.response.json().data);
    expect(again.queries).toEqual(['SelectQueryNode']);
    expect(again.temporal).toEqual(['query']);

    const action = await measured('POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${id}/MarkAsComplete`, manager, {});
    expect(action.response.statusCode).toBe(200);
    expect(action.response.json().data).toMatchObject({ viewerRole: 'manager', opportunityName: detail.response.json().data.opportunityName });
    // The answered view is in the read model before the answer leaves (read-your-writes).
    expect(action.queries).toEqual(['SelectQueryNode', ...PROJECTION]);
    expect(action.temporal).toEqual(['update']);
    const row = await stack.db.selectFrom('applications').select('state_version').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.state_version).toBe(action.response.json().data.version);

    // The workflow's validator refuses with the spec's message; still no Query before the Update, and nothing to project.
    const refused = await measured('POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${id}/MarkAsComplete`, manager, {});
    expect(refused.response.statusCode).toBe(409);
    expect(refused.response.json()).toMatchObject({ status: 409, data: { code: 'actionNotAllowedNow' } });
    expect(refused.queries).toEqual(['SelectQueryNode']);
    expect(refused.temporal).toEqual(['update']);

    // The applicant's own action: the same cost.
    const withdrawn = await measured('POST', `/api/LeaseUpApplication/withdraw-application/${id}`, applicant);
    expect(withdrawn.response.statusCode).toBe(200);
    // A withdrawn application also gives its appointment time back.
    expect(withdrawn.queries).toEqual(['SelectQueryNode', ...PROJECTION, 'DeleteQueryNode']);
    expect(withdrawn.temporal).toEqual(['update']);
  }, 120_000);

  it("the manager's lottery view is read from its projection: one query, no Query to the busy workflow", async () => {
    const org = await stack.db.selectFrom('users').select('organization_id as id').where('username', '=', demoAccount('Manager').username).executeTakeFirstOrThrow();
    const applicant = await stack.db.selectFrom('users').select('id').where('username', '=', demoAccount('User').username).executeTakeFirstOrThrow();
    await seedDemoLottery(stack.db, org.id!, applicant.id, new Date());
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('name', '=', 'Mott Haven Lottery').executeTakeFirstOrThrow();
    const url = `/api/OpportunityLottery/${opportunity.id}`;
    // Not projected yet: the workflow answers (the one time the view is asked of it).
    expect(await ensureLotteries(stack.db, stack.temporal, stack.config.TEMPORAL_TASK_QUEUE)).toBe(1);
    // The deadline and the mail grace period have passed: its timers close applications and freeze the list, and that view is projected.
    await eventually(async () => {
      const row = await stack.db.selectFrom('opportunity_lotteries').select(['stage', 'view']).where('opportunity_id', '=', opportunity.id).executeTakeFirst();
      return row?.stage === 'closed' && (row.view as { frozen?: unknown } | null)?.frozen != null;
    });
    const viewed = await measured('GET', url, manager);
    expect(viewed.response.statusCode).toBe(200);
    expect(viewed.response.json().data).toMatchObject({ opportunityId: opportunity.id, stage: 'closed', availableActions: { manager: expect.arrayContaining(['Draw']) } });
    expect(viewed.queries).toEqual(['SelectQueryNode']);
    expect(viewed.temporal).toEqual([]);
    // What the manager sees is what the workflow holds.
    const live = await stack.temporal.workflow.getHandle(lotteryWorkflowId(opportunity.id)).query(lotteryMessages.getView);
    expect(viewed.response.json().data).toEqual(JSON.parse(JSON.stringify(live)));
  }, 120_000);

  it('logout and deactivation stop a cached token at once, in this process', async () => {
    const { applicant, id } = await appliedApplication();
    const read = () => api.inject({ method: 'GET', url: `/api/LeaseUpApplication/getDetailsById/${id}`, headers: { authorization: applicant.authorization } });
    expect((await read()).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(200);
    const admin = await signIn(stack.app, 'Admin');
    const deactivated = await api.inject({ method: 'POST', url: `/api/Admin/users/${applicant.userId}/deactivate`, headers: { authorization: admin.authorization } });
    expect(deactivated.statusCode).toBe(200);
    expect((await read()).statusCode).toBe(401);

    const other = await makeUser(stack, { role: 'User' });
    const mine = () => api.inject({ method: 'GET', url: '/api/LeaseUpApplication/getApplications', headers: { authorization: other.authorization } });
    expect((await mine()).statusCode).toBe(200);
    expect((await mine()).statusCode).toBe(200);
    expect((await api.inject({ method: 'POST', url: '/api/Account/logout', headers: { authorization: other.authorization } })).statusCode).toBe(200);
    expect((await mine()).statusCode).toBe(401);
  }, 120_000);
});
