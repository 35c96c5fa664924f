import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../api/app';
import { MESSAGES, formatLogNumber } from '../../domain';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { declaredIncomeOf } from '../../infra/db/repositories/declared-income';
import { getLeaseUpView } from '../../workflows/lease-up.messages';
import { CASE_SEARCH_KEYS } from '../../workflows/case/search';
import { makeUser } from '../helpers/lease-up-users';
import { countingApi, type CountingApi } from '../helpers/counting-api';
import { eventually, startStack, type Stack } from '../helpers/stack';

type Applicant = Awaited<ReturnType<typeof makeUser>>;

/**
 * Applying to a first-come opportunity is one read (the caller's household, the opportunity, whether
 * the household applied, the log number), one statement writing the application with its first view
 * and inbox task (one commit) and one Temporal start, once the token's session check is cached; the
 * row is complete when the answer leaves, and the run's first workflow task writes nothing; every
 * refusal costs that one read, starts nothing, writes nothing, and keeps the order and the spec's
 * message of before: no household, unknown or unpublished opportunity, past its deadline, incomplete
 * profile, already applied.
 */
describe('applying costs two statements and one start', () => {
  let stack: Stack;
  let api: FastifyInstance;
  let organizationId: string;
  let counting: CountingApi;

  beforeAll(async () => {
    stack = await startStack();
    counting = await countingApi(stack);
    api = counting.api;
    organizationId = (await stack.db.selectFrom('organizations').select('id').orderBy('created_at').executeTakeFirstOrThrow()).id;
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  /** The UTC day, as the apply's deadline check reads it (domain/opportunity.ts daysUntil). */
  const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

  async function opportunity(options: { published?: boolean; endsInDays?: number } = {}): Promise<string> {
    const end = utcDay(new Date(Date.now() + (options.endsInDays ?? 30) * 86_400_000));
    const row = await stack.db
      .insertInto('opportunities')
      .values({
        organization_id: organizationId,
        name: `Apply cost ${Math.random().toString(36).slice(2, 8)}`,
        kind: 'rental',
        address: '1 Test Street',
        amenities: '[]',
        requirements: '[]',
        income_ranges: '[]',
        lottery_end_date: end,
        published: options.published ?? true,
        offer_expiry_days: 3,
        appeal_window_days: 9,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** An applicant whose token's session check is already cached in this process (its first request was made). */
  async function applicant(options: { household?: boolean; completion?: number } = {}): Promise<Applicant> {
    const who = await makeUser(stack, { role: 'User' });
    if (options.household === false) await stack.db.deleteFrom('households').where('id', '=', who.householdId!).execute();
    else if (options.completion !== undefined) await stack.db.updateTable('households').set({ profile_completion: options.completion }).where('id', '=', who.householdId!).execute();
    const warm = await api.inject({ method: 'GET', url: '/api/LeaseUpApplication/getApplications', headers: { authorization: who.authorization } });
    expect(warm.statusCode).toBe(200);
    return { ...who, householdId: options.household === false ? null : who.householdId };
  }

  async function applyAs(who: Applicant, opportunityId: string) {
    counting.reset();
    const response = await api.inject({
      method: 'POST',
      url: '/api/LeaseUpApplication/apply',
      headers: { authorization: who.authorization },
      payload: { opportunityId, householdSize: 3, householdIncome: 41_500.5, agreeToTerms: true },
    });
    return { response, body: response.json(), queries: [...counting.queries], temporal: [...counting.temporalCalls] };
  }

  /**
   * Runs `act` against an opportunity whose deadline is today, as the API's clock sees the day: the
   * deadline is set to the current UTC day right before, and if that day ended while `act` ran (a run
   * crossing midnight UTC) the answer could belong to either day, so it is done again on the new day
   * (`act` makes its own applicant each time). The result never depends on the time of day.
   */
  async function onItsLastDay<T>(opportunityId: string, act: () => Promise<T>): Promise<T> {
    for (;;) {
      const day = utcDay();
      await stack.db.updateTable('opportunities').set({ lottery_end_date: day }).where('id', '=', opportunityId).execute();
      const out = await act();
      if (utcDay() === day) return out;
    }
  }

  async function applicationsOf(who: Applicant) {
    return stack.db.selectFrom('applications').selectAll().where('applicant_user_id', '=', who.userId).execute();
  }

  it('an application is one read, one write and one start; its row and workflow carry the name-based ID and the settings', async () => {
    const opportunityId = await opportunity();
    const who = await applicant();
    const applied = await applyAs(who, opportunityId);
    expect(applied.response.statusCode).toBe(201);
    expect(applied.queries).toEqual(['RawNode', 'RawNode']);
    expect(applied.temporal).toEqual(['start']);
    const id = leaseUpApplicationId(opportunityId, who.householdId!);
    expect(applied.body).toMatchObject({ status: 201, data: { applicationId: id } });

    const [row, ...others] = await applicationsOf(who);
    expect(others).toHaveLength(0);
    expect(row).toMatchObject({
      id,
      workflow_id: leaseUpWorkflowId(id),
      household_id: who.householdId,
      opportunity_id: opportunityId,
      organization_id: organizationId,
      status: 'in_review',
      current_step: 'documentation_review',
      household_size: 3,
      state_version: 1,
    });
    // Projected before the answer: the view the workflow holds, and the manager's inbox task.
    const view = await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).query(getLeaseUpView);
    expect(view.version).toBe(1);
    // The declared income is sealed in its own column, left out of the stored view.
    expect(JSON.parse(JSON.stringify(row!.view))).toEqual(JSON.parse(JSON.stringify({ ...view, householdIncome: undefined })));
    expect(row!.log_number).toBe(view.logNumber);
    const tasks = await stack.db.selectFrom('manager_tasks').select(['action', 'organization_id']).where('case_id', '=', id).execute();
    expect(tasks.map((t) => t.action).sort()).toEqual(view.pendingTasks.filter((t) => t.role === 'manager').map((t) => t.action).sort());
    expect(tasks.length).toBeGreaterThan(0);
    expect(row!.household_income).toBeNull();
    expect(row!.household_income_encrypted).toMatch(/^v2:/);
    expect(declaredIncomeOf(row!)).toBe(41_500.5);
    const description = await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).describe();
    expect(description.type).toBe('leaseUpApplication');

    // The second time: refused as a duplicate by the read alone, nothing started.
    const again = await applyAs(who, opportunityId);
    expect(again.response.statusCode).toBe(409);
    expect(again.body).toEqual({ status: 409, message: MESSAGES.alreadyApplied, data: { code: 'alreadyApplied' } });
    expect(again.queries).toEqual(['RawNode']);
    expect(again.temporal).toEqual([]);
    expect(await applicationsOf(who)).toHaveLength(1);
  }, 120_000);

  it('the workflow gets the opportunity\'s lease-up settings', async () => {
    const opportunityId = await opportunity();
    const who = await applicant();
    const applied = await applyAs(who, opportunityId);
    expect(applied.response.statusCode).toBe(201);
    const id = applied.body.data.applicationId as string;
    const view = await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).query(getLeaseUpView);
    expect(view.settings).toMatchObject({ offerExpiryDays: 3, appealWindowDays: 9, appealDecisionBusinessDays: 5, additionalDocumentsDays: 14 });
    // The log number is issued by the apply's own statement and handed to the workflow with the first
    // view already projected: the workflow's number is the issued one, and its start runs no activity.
    const issued = await stack.db.selectFrom('application_log_numbers').select('number').where('application_id', '=', id).executeTakeFirstOrThrow();
    expect(view.logNumber).toBe(formatLogNumber(issued.number));
    // The checks below are about the run's first workflow task: wait for it to have completed (the
    // test fails, saying so, if it never does; a history in which nothing ran proves nothing).
    const events = async () => (await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).fetchHistory()).events ?? [];
    const history = await eventually(async () => {
      const all = await events();
      return all.some((e) => e.workflowTaskCompletedEventAttributes) ? all : null;
    }, 60_000, `the first workflow task of ${leaseUpWorkflowId(id)} completed`);
    expect(history[0]?.workflowExecutionStartedEventAttributes).toBeTruthy();
    const localActivities = history.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(localActivities).toHaveLength(0);
    expect(history.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(0);
    // Its search attributes came with the start: its first workflow task records no marker and no upsert.
    expect(history.filter((e) => e.markerRecordedEventAttributes)).toHaveLength(0);
    expect(history.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes)).toHaveLength(0);
    const attributes = (await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).describe()).typedSearchAttributes;
    expect(attributes.get(CASE_SEARCH_KEYS.CaseLogNumber)).toBe(view.logNumber);
    expect(attributes.get(CASE_SEARCH_KEYS.CaseStatus)).toBe(view.status);
    expect(attributes.get(CASE_SEARCH_KEYS.CaseChangedAt)?.toISOString()).toBe(view.updatedAt);
  }, 120_000);

  it('refuses in the order of before, each with one query, no start and no row', async () => {
    const open = await opportunity();
    const unpublished = await opportunity({ published: false });
    const closed = await opportunity({ endsInDays: -2 });
    const endsToday = await opportunity({ endsInDays: 0 });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const noHousehold = await applicant({ household: false });
    const incomplete = await applicant({ completion: 80 });
    const complete = await applicant();

    const cases: [Applicant, string, number, keyof typeof MESSAGES][] = [
      // No household comes first, whatever the opportunity.
      [noHousehold, open, 422, 'profileIncomplete'],
      [noHousehold, unknown, 422, 'profileIncomplete'],
      [noHousehold, closed, 422, 'profileIncomplete'],
      // Then the opportunity: unknown or unpublished is 404, also for an incomplete profile.
      [incomplete, unknown, 404, 'notFound'],
      [incomplete, unpublished, 404, 'notFound'],
      [complete, unpublished, 404, 'notFound'],
      // Then its deadline, before the profile's completion.
      [incomplete, closed, 409, 'opportunityClosed'],
      [complete, closed, 409, 'opportunityClosed'],
      // Then the profile.
      [incomplete, open, 422, 'profileIncomplete'],
    ];
    const expectRefused = (refused: Awaited<ReturnType<typeof applyAs>>, status: number, code: keyof typeof MESSAGES) => {
      expect({ status: refused.response.statusCode, body: refused.body }).toEqual({ status, body: { status, message: MESSAGES[code], data: { code } } });
      expect(refused.queries).toEqual(['RawNode']);
      expect(refused.temporal).toEqual([]);
    };
    for (const [who, opportunityId, status, code] of cases) expectRefused(await applyAs(who, opportunityId), status, code);
    // On its last day the opportunity is still open: an incomplete profile is what is refused.
    expectRefused(await onItsLastDay(endsToday, () => applyAs(incomplete, endsToday)), 422, 'profileIncomplete');
    for (const who of [noHousehold, incomplete, complete]) expect(await applicationsOf(who)).toHaveLength(0);

    // The last day of an opportunity still takes applications.
    const lastDay = await onItsLastDay(endsToday, async () => applyAs(await applicant(), endsToday));
    expect(lastDay.response.statusCode).toBe(201);
  }, 120_000);

  it('an application whose earlier start failed gets the log number issued then', async () => {
    const opportunityId = await opportunity();
    const who = await applicant();
    // What an apply whose workflow did not start leaves: its number, no row (dropUnstartedCase).
    const id = leaseUpApplicationId(opportunityId, who.householdId!);
    const issued = await stack.db.insertInto('application_log_numbers').values({ application_id: id }).returning('number').executeTakeFirstOrThrow();
    const applied = await applyAs(who, opportunityId);
    expect(applied.response.statusCode).toBe(201);
    const [row] = await applicationsOf(who);
    expect(row!.log_number).toBe(formatLogNumber(issued.number));
    const view = await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).query(getLeaseUpView);
    expect(view.logNumber).toBe(formatLogNumber(issued.number));
  }, 120_000);

  it('an opportunity unpublished between the read and the write gets no row: the apply reads again and refuses', async () => {
    const opportunityId = await opportunity();
    const who = await applicant();
    // The first query of the request (its read) is answered, then the opportunity is unpublished
    // before the write is sent.
    const statements: string[] = [];
    const unpublishAfterRead: KyselyPlugin = {
      transformQuery: (args) => {
        statements.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => {
        if (statements.length === 1) await stack.db.updateTable('opportunities').set({ published: false }).where('id', '=', opportunityId).execute();
        return args.result;
      },
    };
    const racing = await buildApp({ config: stack.config, db: stack.db.withPlugin(unpublishAfterRead), temporal: stack.temporal, blobs: stack.blobs });
    try {
      const refused = await racing.inject({
        method: 'POST',
        url: '/api/LeaseUpApplication/apply',
        headers: { authorization: who.authorization },
        payload: { opportunityId, householdSize: 2, householdIncome: 30_000, agreeToTerms: true },
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().data.code).toBe('notFound');
      // The read, the write that found the opportunity gone, the read that refused.
      expect(statements).toEqual(['RawNode', 'RawNode', 'RawNode']);
    } finally {
      await racing.close();
    }
    const id = leaseUpApplicationId(opportunityId, who.householdId!);
    expect(await applicationsOf(who)).toHaveLength(0);
    expect(await stack.db.selectFrom('manager_tasks').select('id').where('case_id', '=', id).execute()).toHaveLength(0);
    expect(await stack.db.selectFrom('application_log_numbers').select('number').where('application_id', '=', id).execute()).toHaveLength(0);
  }, 120_000);

  it('twenty concurrent applications of one household give one row and one workflow', async () => {
    const opportunityId = await opportunity();
    const who = await applicant();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.inject({
          method: 'POST',
          url: '/api/LeaseUpApplication/apply',
          headers: { authorization: who.authorization },
          payload: { opportunityId, householdSize: 2, householdIncome: 30_000, agreeToTerms: true },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expect(refused.json().data.code).toBe('alreadyApplied');
    expect(await applicationsOf(who)).toHaveLength(1);
  }, 120_000);
});
