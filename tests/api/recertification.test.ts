import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const BASE = '/api/TenantRecertificationStatus';

/**
 * Recertification, dashboard and profile-lock routes on the real stack: the demo tenant's lease
 * anniversary is 100 days away, so the annual cycle is open (120-day window).
 */
describe('recertification, dashboard and profile lock through the API', () => {
  let stack: Stack;
  let tenant: Auth;
  let applicant: Auth;
  let manager: Auth;
  let ambassador: Auth;
  let caseId: string;

  beforeAll(async () => {
    stack = await startStack();
    [tenant, applicant, manager, ambassador] = await Promise.all([
      signIn(stack.app, 'Tenant'),
      signIn(stack.app, 'User'),
      signIn(stack.app, 'Manager'),
      signIn(stack.app, 'HousingAmbassador'),
    ]);
  });
  afterAll(() => stack?.close());

  const get = (url: string, headers?: Auth) => stack.app.inject({ url, ...(headers ? { headers } : {}) });
  const post = (url: string, headers: Auth, payload?: object) => stack.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

  it('serves the tenant case of section 3 with the income band from the AMI table; guarded', async () => {
    expect((await get(`${BASE}/status`)).statusCode).toBe(401);
    expect((await get(`${BASE}/status`, ambassador)).statusCode).toBe(403);
    const none = await get(`${BASE}/status`, applicant);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ status: 200, message: 'No recertification data or active case found', data: null });

    const res = await get(`${BASE}/status`, tenant);
    expect(res.statusCode).toBe(200);
    const c = res.json().data;
    caseId = c.caseId;
    expect(c).toMatchObject({
      kind: 'annual',
      address: '410 Riverside Dr, New York, NY 10025',
      bedrooms: '2 bedrooms',
      unitNumber: '4B',
      householdSize: 2,
      status: 'active',
      stage: 'action_needed',
      nextStep: 'confirmOrUpdateProfile',
      // 52,000 against the 2-person 100% AMI of 124,300 is 42%: very low income (31-50).
      incomeBand: { band: 'very_low', amiPercent: 42, ami100: 124300 },
    });
    expect(c.daysRemaining).toBeGreaterThanOrEqual(99);
    expect(c.daysRemaining).toBeLessThanOrEqual(101);
    expect(c.period.to > c.period.from).toBe(true);
    // The same cycle on every call: the case ID is derived from household and anniversary.
    expect((await get(`${BASE}/status`, tenant)).json().data.caseId).toBe(caseId);
  });

  it('dashboard: data, profile completion, action items (404 when nothing to do); guarded', async () => {
    const data = await get('/api/Dashboard/getDashboardData', tenant);
    expect(data.statusCode).toBe(200);
    expect(data.json().data).toMatchObject({
      welcome: { firstName: 'Luis' },
      recertificationStatus: { caseId, stage: 'action_needed' },
      announcement: { key: 'recertificationOpen' },
      profileCompletion: 100,
    });
    const items = await get('/api/Dashboard/getActionItems', tenant);
    expect(items.json().data).toEqual([expect.objectContaining({ kind: 'recertification', action: 'ConfirmProfile', caseId, path: '/recertification' })]);
    expect((await get('/api/Dashboard/getActionItems', applicant)).statusCode).toBe(404);
    expect((await get('/api/Dashboard/getProfileCompletionStatus', applicant)).json().data).toEqual({ profileCompletion: 100, isComplete: true });
    expect((await get('/api/Dashboard/getDashboardData', ambassador)).statusCode).toBe(403);
    expect((await get('/api/Dashboard/getActionItems')).statusCode).toBe(401);
    expect((await get('/api/Dashboard/getProfileCompletionStatus', manager)).statusCode).toBe(403);
  });

  it('refuses bad input with a 4xx in the envelope', async () => {
    expect((await post(`${BASE}/not-a-uuid/ConfirmProfile`, tenant)).statusCode).toBe(400);
    expect((await post(`${BASE}/${caseId}/Approve`, tenant)).statusCode).toBe(400);
    expect((await post(`${BASE}/00000000-0000-4000-8000-000000000000/ConfirmProfile`, tenant)).statusCode).toBe(404);
    expect((await post(`${BASE}/${caseId}/ConfirmProfile`, applicant)).statusCode).toBe(403);
    expect((await post(`${BASE}/manager/${caseId}/GenerateTIC`, tenant)).statusCode).toBe(403);
    const badReasons = await post(`${BASE}/${caseId}/Resubmit`, tenant, { reasons: [''] });
    expect(badReasons.statusCode).toBe(400);
    expect(badReasons.json().message).toBe('Please provide a reason.');
    expect((await post(`${BASE}/interim`, tenant, { reason: 'bored' })).statusCode).toBe(400);
  });

  it('confirm locks the profile, documents, TIC, signing, return for changes, resubmission and approval', async () => {
    expect((await get('/api/UserProfile/profile-lock-status', tenant)).json().data).toMatchObject({ isProfileLocked: false, isTenantSigned: false, householdSize: 2 });
    let res = await post(`${BASE}/${caseId}/ConfirmProfile`, tenant);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.stage).toBe('profile_complete');
    expect((await get('/api/UserProfile/profile-lock-status', tenant)).json().data).toMatchObject({
      isProfileLocked: true,
      isRecertificationExpired: false,
      organizationEmail: 'office@riverside.example.org',
      organizationPhone: '2125550100',
    });
    // The signed-in user object (spec section 3) carries the same flag.
    expect((await get(`/api/Account/getuserdetails/${tenant.userId}`, tenant)).json().data.isProfileLocked).toBe(true);
    res = await post(`${BASE}/${caseId}/ConfirmProfile`, tenant);
    expect(res.statusCode).toBe(409);
    expect(res.json().data.code).toBe('actionNotAllowedNow');

    expect((await post(`${BASE}/${caseId}/SubmitDocuments`, tenant)).json().data.stage).toBe('under_manager_review');
    const inbox = await eventually(async () => {
      const r = (await get('/api/ManagerTasks?caseKind=recertification&limit=100', manager)).json().data.items as { caseId: string; action: string }[];
      return r.some((t) => t.caseId === caseId && t.action === 'GenerateTIC') && r;
    });
    expect(inbox.filter((t) => t.caseId === caseId).map((t) => t.action)).toEqual(['GenerateTIC']);
    expect((await get(`${BASE}/case/${caseId}/tic`, tenant)).statusCode).toBe(404);
    expect((await post(`${BASE}/manager/${caseId}/GenerateTIC`, manager)).json().data.stage).toBe('documents_submitted_pending_signature');
    const tic = (await get(`${BASE}/case/${caseId}/tic`, tenant)).json().data;
    expect(tic.contentType).toBe('application/pdf');
    expect(Buffer.from(tic.fileContent, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    res = await post(`${BASE}/${caseId}/SignTIC`, tenant, { signatureBase64: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().data.code).toBe('emptySignature');
    res = await post(`${BASE}/${caseId}/SignTIC`, tenant, { signatureBase64: PNG });
    expect(res.json().data.stage).toBe('documents_submitted_pending_signature');
    // The head has signed; each adult member of the household profile (seeded: Marisol Ortega) still must.
    const signers = res.json().data.view.signers as { id: string; name: string; isHead: boolean; signedAt: string | null }[];
    expect(signers[0]).toMatchObject({ name: 'Luis Ortega', isHead: true });
    expect(signers.find((s) => s.name === 'Marisol Ortega')).toMatchObject({ isHead: false, signedAt: null });
    expect((await get('/api/UserProfile/profile-lock-status', tenant)).json().data.isTenantSigned).toBe(false);
    for (const member of signers.filter((s) => !s.isHead)) {
      res = await post(`${BASE}/${caseId}/SignTIC`, tenant, { signerId: member.id, signatureBase64: PNG });
      expect(res.statusCode).toBe(200);
    }
    expect(res.json().data.stage).toBe('documents_signed_awaiting_approval');
    await eventually(async () => (await get('/api/UserProfile/profile-lock-status', tenant)).json().data.isTenantSigned === true);
    expect((await get('/api/UserProfile/profile-lock-status', tenant)).json().data.isTenantSigned).toBe(true);

    expect((await post(`${BASE}/manager/${caseId}/ReturnForChanges`, manager)).statusCode).toBe(422);
    res = await post(`${BASE}/manager/${caseId}/ReturnForChanges`, manager, { reasons: ['Add the March pay stub'] });
    expect(res.json().data).toMatchObject({ stage: 'returned_for_changes', nextStep: 'resubmit' });
    expect((await get('/api/UserProfile/profile-lock-status', tenant)).json().data.isProfileLocked).toBe(false);
    res = await post(`${BASE}/${caseId}/Resubmit`, tenant, { reasons: ['Uploaded it'] });
    expect(res.json().data.stage).toBe('pending_manager_review');
    res = await post(`${BASE}/manager/${caseId}/Approve`, manager);
    expect(res.json().data).toMatchObject({ stage: 'completed', status: 'completed', nextStep: 'none' });
    expect(res.json().data.view.approvedAt).toBeTruthy();
    res = await post(`${BASE}/manager/${caseId}/Approve`, manager);
    expect(res.statusCode).toBe(409);
    expect(res.json().data.code).toBe('recertificationCompleted');

    // Past the namespace's retention the workflow is gone; the case is still served from its last projection.
    const workflowId = `recertification/${caseId}`;
    await eventually(async () => (await stack.db.selectFrom('recertification_cases').select('status').where('id', '=', caseId).executeTakeFirst())?.status === 'completed');
    await stack.temporal.workflowService.deleteWorkflowExecution({ namespace: stack.config.TEMPORAL_NAMESPACE, workflowExecution: { workflowId } });
    await eventually(() => stack.temporal.workflow.getHandle(workflowId).describe().then(() => false, () => true), 90_000);
    const archived = await get(`${BASE}/case/${caseId}`, manager);
    expect(archived.statusCode).toBe(200);
    expect(archived.json().data).toMatchObject({ status: 'completed', unitNumber: '4B' });
    expect((await get('/api/Dashboard/getDashboardData', tenant)).statusCode).toBe(200);
  }, 150_000);

  it('starts an interim recertification once per day; the manager can start one for a household of the organisation', async () => {
    const res = await post(`${BASE}/interim`, tenant, { reason: 'income_change' });
    expect(res.statusCode).toBe(201);
    const again = await post(`${BASE}/interim`, tenant, { reason: 'household_change' });
    expect(again.statusCode).toBe(409);
    expect(again.json().data.code).toBe('recertificationAlreadyOpen');
    const status = await eventually(async () => {
      const c = (await get(`${BASE}/status`, tenant)).json().data;
      return c.kind === 'interim' && c;
    });
    expect(status.caseId).toBe(res.json().data.caseId);
    const household = await stack.db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select('h.id').where('u.username', '=', 'tenant').executeTakeFirstOrThrow();
    expect((await post(`${BASE}/manager/interim/${household.id}`, tenant, { reason: 'income_change' })).statusCode).toBe(403);
    expect((await post(`${BASE}/manager/interim/not-a-uuid`, manager, { reason: 'income_change' })).statusCode).toBe(400);
    expect((await post(`${BASE}/manager/interim/${household.id}`, manager, { reason: 'income_change' })).statusCode).toBe(409);
  });

  it("lists the organisation's tenant households for the manager: the head to act for, the annual window and the latest case", async () => {
    expect((await get(`${BASE}/manager/households`)).statusCode).toBe(401);
    expect((await get(`${BASE}/manager/households`, tenant)).statusCode).toBe(403);
    const rows = (await get(`${BASE}/manager/households`, manager)).json().data as {
      householdId: string; headUserId: string; annualDeadline: string; annualOpensOn: string; latestCase: { caseId: string; kind: string } | null;
    }[];
    const head = await stack.db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select(['h.id', 'u.id as userId']).where('u.username', '=', 'tenant').executeTakeFirstOrThrow();
    const row = rows.find((r) => r.householdId === head.id);
    expect(row).toMatchObject({ headUserId: head.userId, latestCase: { kind: 'interim', caseId: (await get(`${BASE}/status`, tenant)).json().data.caseId } });
    // The annual cycle opens 120 days before the lease anniversary, as the daily sweep opens it.
    expect((Date.parse(row!.annualDeadline) - Date.parse(row!.annualOpensOn)) / 86_400_000).toBe(120);
    // A manager of another organisation sees none of these households.
    const other = await stack.db.insertInto('organizations').values({ name: 'Other Office', slug: `other-office-${head.id.slice(0, 8)}` }).returning('id').executeTakeFirstOrThrow();
    const stranger = await stack.db
      .insertInto('users')
      .values({ username: `other-manager-${head.id.slice(0, 8)}`, email: `other-manager-${head.id.slice(0, 8)}@example.org`, first_name: 'Otto', last_name: 'Other', role: 'Manager', password_hash: 'x', organization_id: other.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const strangerAuth = { authorization: `Bearer ${stack.app.signAccessToken({ sub: stranger.id, role: 'Manager' }).token}` };
    expect((await stack.app.inject({ url: `${BASE}/manager/households`, headers: strangerAuth })).json().data).toEqual([]);
  });
});
