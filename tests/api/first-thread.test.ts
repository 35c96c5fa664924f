import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hash } from '@node-rs/argon2';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

/**
 * The first thread through every layer: apply through the API starts the lease-up workflow, an
 * Update advances it (its validator refuses an illegal step with the spec's message), a Query reads
 * it, and the projection activity writes the read model that getApplications serves.
 */
describe('lease-up application through the API on the real stack', () => {
  let stack: Stack;
  let applicant: { authorization: string };
  let manager: { authorization: string };
  let opportunityId: string;

  beforeAll(async () => {
    stack = await startStack();
    applicant = await signIn(stack.app, 'User');
    manager = await signIn(stack.app, 'Manager');
    const list = await stack.app.inject({ url: '/api/Opportunity/published-opportunities' });
    opportunityId = list.json().data[0].id;
  });
  afterAll(() => stack?.close());

  const post = (url: string, headers: { authorization: string }, payload?: object) =>
    stack.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  const apply = (headers: { authorization: string }, id = opportunityId) =>
    post('/api/LeaseUpApplication/apply', headers, { opportunityId: id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true });

  it('applies, refuses an illegal step, advances, and projects every step to Postgres', async () => {
    const applied = await apply(applicant);
    expect(applied.statusCode).toBe(201);
    const { applicationId } = applied.json().data;

    const detail = await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${applicationId}`, headers: applicant });
    expect(detail.statusCode).toBe(200);
    const view = detail.json().data;
    // The manager's inbox lists this application's open manager tasks (read model, written by the projection).
    const inboxTasks = await eventually(async () => {
      const r = await stack.app.inject({ url: '/api/ManagerTasks?caseKind=lease_up&limit=100', headers: manager });
      const mine = r.json().data.items.filter((t: { caseId: string }) => t.caseId === applicationId);
      return mine.length > 0 ? mine : undefined;
    });
    // MarkAsComplete waits for the profile; requesting screening consent is open now.
    expect(inboxTasks.map((t: { action: string }) => t.action)).toEqual(['RequestConsentForScreening']);
    expect(inboxTasks[0]).toMatchObject({ step: 'documentation_review', householdName: 'Amina Rahman', contextId: opportunityId });
    expect(view.currentStep).toBe('documentation_review');
    expect(view.viewerRole).toBe('applicant');
    expect(view.availableActions.applicant).toContain('SubmitProfile');
    expect(view.timeline.find((t: { step: string }) => t.step === 'submitted').state).toBe('complete');

    // The manager may not mark it complete before the profile is submitted (workflows.md).
    const early = await post(`/api/LeaseUpApplication/updateleaseapplicationstatus/${applicationId}/MarkAsComplete`, manager);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ status: 409, message: 'Profile not submitted', data: { code: 'profileNotSubmitted' } });

    const submitted = await post(`/api/Household/submit-applicant-profile/${applicationId}`, applicant);
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().data.profileSubmitted).toBe(true);
    expect(submitted.json().data.availableActions.applicant).not.toContain('SubmitProfile');

    const again = await post(`/api/Household/submit-applicant-profile/${applicationId}`, applicant);
    expect(again.json()).toMatchObject({ status: 409, data: { code: 'profileAlreadySubmitted' } });

    const complete = await post(`/api/LeaseUpApplication/updateleaseapplicationstatus/${applicationId}/MarkAsComplete`, manager);
    expect(complete.statusCode).toBe(200);
    expect(complete.json().data.currentStep).toBe('decision');

    const row = await eventually(async () => {
      const r = await stack.db.selectFrom('applications').selectAll().where('id', '=', applicationId).executeTakeFirst();
      return r?.current_step === 'decision' ? r : undefined;
    });
    expect(row.log_number).toMatch(/^LU-\d{6}$/);
    expect(row.status).toBe('in_review');

    const mine = await stack.app.inject({ url: '/api/LeaseUpApplication/getApplications', headers: applicant });
    expect(mine.json().data.items).toEqual([
      expect.objectContaining({ applicationId, currentStep: 'decision', logNumber: row.log_number, opportunityName: expect.any(String) }),
    ]);
    const inbox = await stack.app.inject({ url: '/api/LeaseUpApplication/getApplications', headers: manager });
    expect(inbox.json().data.items.map((r: { applicationId: string }) => r.applicationId)).toContain(applicationId);

    // At the decision the manager's inbox holds the next task: offering appointment slots.
    await eventually(async () => {
      const tasks = await stack.app.inject({ url: '/api/ManagerTasks?caseKind=lease_up&limit=100', headers: manager });
      const mine = tasks.json().data.items.filter((t: { caseId: string }) => t.caseId === applicationId);
      return mine.length === 1 && mine[0].action === 'ProceedToAppointmentScheduling' && mine[0].step === 'decision';
    });
    expect((await stack.app.inject({ url: '/api/ManagerTasks', headers: applicant })).statusCode).toBe(403);
  });

  it('admits exactly one application per household per lottery, also under 20 concurrent applies', async () => {
    const list = await stack.app.inject({ url: '/api/Opportunity/published-opportunities' });
    const other = list.json().data[1].id;
    const answers = await Promise.all(Array.from({ length: 20 }, () => apply(applicant, other)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(answers.find((a) => a.statusCode === 409)!.json().message).toBe('Already applied');
  });

  it('refuses another household, a signed-out caller and a wrong role', async () => {
    const applied = await apply(applicant, (await stack.app.inject({ url: '/api/Opportunity/published-opportunities' })).json().data[2].id);
    const { applicationId } = applied.json().data;

    // A second applicant household, not the owner of this application.
    const { id: userId } = await stack.db
      .insertInto('users')
      .values({ username: 'stranger', email: 'stranger@example.org', first_name: 'Other', last_name: 'Person', role: 'User', password_hash: await hash('Stranger#2026'), email_verified: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    await stack.db.insertInto('households').values({ head_user_id: userId, profile_completion: 100 }).execute();
    const login = await post('/api/Account/login', { authorization: '' }, { username: 'stranger', password: 'Stranger#2026' });
    const stranger = { authorization: `Bearer ${login.json().data.accessToken}` };

    const peek = await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${applicationId}`, headers: stranger });
    expect(peek.statusCode).toBe(403);
    const act = await post(`/api/LeaseUpApplication/withdraw-application/${applicationId}`, stranger);
    expect(act.statusCode).toBe(403);
    expect((await stack.app.inject({ url: '/api/LeaseUpApplication/getApplications', headers: stranger })).json().data).toEqual({ items: [], nextCursor: null });

    const anonymous = await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${applicationId}` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 401, data: { code: 'unauthorized' } });

    // An applicant cannot take a manager action.
    const wrongRole = await post(`/api/LeaseUpApplication/updateleaseapplicationstatus/${applicationId}/MarkAsComplete`, applicant);
    expect(wrongRole.statusCode).toBe(403);

    // Withdrawing is final: the workflow ends, and later actions are refused as closed.
    expect((await post(`/api/LeaseUpApplication/withdraw-application/${applicationId}`, applicant)).json().data.status).toBe('withdrawn');
    const late = await post(`/api/Household/submit-applicant-profile/${applicationId}`, applicant);
    expect(late.json()).toMatchObject({ status: 409, message: 'This application is closed', data: { code: 'applicationClosed' } });
    const detail = await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${applicationId}`, headers: applicant });
    expect(detail.json().data.status).toBe('withdrawn');
  });

  it('answers bad input with a 4xx in the envelope, never a 500', async () => {
    const cases = [
      stack.app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: { ...applicant, 'content-type': 'application/json' }, payload: '{"broken' }),
      post('/api/LeaseUpApplication/apply', applicant, { opportunityId: 'not-a-uuid', householdSize: 'two', agreeToTerms: true }),
      post('/api/LeaseUpApplication/apply', applicant, { opportunityId, householdSize: 2, householdIncome: 1, agreeToTerms: false }),
      stack.app.inject({ url: '/api/LeaseUpApplication/getDetailsById/123', headers: applicant }),
      stack.app.inject({ url: '/api/Opportunity/not-a-uuid' }),
      post('/api/LeaseUpApplication/updateleaseapplicationstatus/00000000-0000-4000-8000-000000000000/DropTables', manager),
      stack.app.inject({ url: '/api/LeaseUpApplication/getDetailsById/00000000-0000-4000-8000-000000000000', headers: applicant }),
      stack.app.inject({ url: '/api/NoSuchRoute' }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
      const body = response.json();
      expect(body.status).toBe(response.statusCode);
      expect(typeof body.message).toBe('string');
    }
    const terms = await post('/api/LeaseUpApplication/apply', applicant, { opportunityId, householdSize: 2, householdIncome: 1, agreeToTerms: false });
    expect(terms.json().message).toBe('You must agree to the terms');
  });

  it('reports readiness of every dependency', async () => {
    const ready = await stack.app.inject({ url: '/readyz' });
    expect(ready.json()).toEqual({ status: 200, message: 'Ready', data: { database: 'ok', temporal: 'ok', blobs: 'ok' } });
    expect((await stack.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
