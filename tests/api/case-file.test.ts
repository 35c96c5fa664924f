import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { otherOrganizationManager } from '../helpers/lease-up-users';

type Auth = { authorization: string; userId: string };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const RECERT = '/api/TenantRecertificationStatus';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * The manager's case file on the real stack: a lease-up application's household with
 * its documents, each previewed and reviewed (the household reads the reason), guarded by role and
 * organisation; and a recertification that shows what changed since the last approved cycle.
 */
describe.sequential('the manager\'s case file', () => {
  let stack: Stack;
  let applicant: Auth;
  let tenant: Auth;
  let manager: Auth;
  let otherManager: Auth;
  let applicationId: string;
  let payStubId: string;

  beforeAll(async () => {
    stack = await startStack();
    [applicant, tenant, manager] = await Promise.all([signIn(stack.app, 'User'), signIn(stack.app, 'Tenant'), signIn(stack.app, 'Manager')]);
    otherManager = await otherOrganizationManager(stack);
  });
  afterAll(() => stack?.close());

  const get = (url: string, who?: Auth) => stack.app.inject({ url, ...(who ? { headers: { authorization: who.authorization } } : {}) });
  const post = (url: string, who: Auth, payload?: object) =>
    stack.app.inject({ method: 'POST', url, headers: { authorization: who.authorization }, ...(payload ? { payload } : {}) });

  it('shows the applicant household: members, annualised income, AMI band and income fit, housing choices, documents', async () => {
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('kind', '=', 'rental').orderBy('name').executeTakeFirstOrThrow();
    const applied = await post('/api/LeaseUpApplication/apply', applicant, { opportunityId: opportunity.id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true });
    expect(applied.statusCode).toBe(201);
    applicationId = applied.json().data.applicationId;

    const res = await get(`/api/CaseFile/lease-up/${applicationId}`, manager);
    expect(res.statusCode).toBe(200);
    const file = res.json().data;
    expect(file.members).toEqual([
      expect.objectContaining({ relationship: 'self', student: false, disability: false }),
      expect.objectContaining({ relationship: 'spouse' }),
    ]);
    expect(file.members[0].age).toBeGreaterThan(40);
    // 2,000 every two weeks is 52,000 a year; 42% of the 2-person 100% AMI, within the opportunity's 48,000-99,440.
    expect(file.incomes).toEqual([expect.objectContaining({ incomeType: 'employment', sourceName: 'City Hospital', amount: 2000, frequency: 'bi_weekly', annual: 52_000 })]);
    expect(file.totalIncome).toBe(52_000);
    expect(file.ami).toMatchObject({ band: 'very_low', amiPercent: 42, householdSize: 2, incomeFit: 'within' });
    expect(file.housingChoices.preferences).toMatchObject({ unitSize: 'one_bedroom' });
    expect(file.changes).toBeNull();
    const stub = file.documents.find((d: { documentType: string }) => d.documentType === 'pay_stub');
    expect(stub).toMatchObject({ fileName: 'pay-stub.pdf', contentType: 'application/pdf', checklistItem: 'employment:pay_stub', reviewState: 'pending' });
    payStubId = stub.id;

    const preview = await get(`/api/CaseFile/lease-up/${applicationId}/documents/${payStubId}/file`, manager);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('application/pdf');
    expect(preview.headers['content-disposition']).toBe('inline');
    expect(preview.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('accepts, rejects with a reason the household reads, and flags a document', async () => {
    const review = (payload: object, who: Auth = manager) => post(`/api/CaseFile/lease-up/${applicationId}/documents/${payStubId}/review`, who, payload);
    const noReason = await review({ decision: 'reject' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ status: 400, message: 'Please provide a reason.' });
    expect((await review({ decision: 'approve' })).statusCode).toBe(400);

    let res = await review({ decision: 'reject', reason: 'The pay stub is cut off at the bottom' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ reviewState: 'rejected', rejectionReason: 'The pay stub is cut off at the bottom' });
    const mine = (await get('/api/Household/getAllDocuments', applicant)).json().data.find((d: { id: string }) => d.id === payStubId);
    expect(mine).toMatchObject({ rejectedByManager: true, rejectionReason: 'The pay stub is cut off at the bottom' });

    res = await review({ decision: 'flag' });
    expect(res.json().data).toMatchObject({ reviewState: 'flagged', rejectionReason: null });
    res = await review({ decision: 'accept' });
    expect(res.json().data).toMatchObject({ reviewState: 'accepted' });
    // Accepting again changes nothing.
    expect((await review({ decision: 'accept' })).json().data.reviewState).toBe('accepted');
    const reviewed = await stack.db.selectFrom('household_documents').select(['reviewed_by', 'accepted_at']).where('id', '=', payStubId).executeTakeFirstOrThrow();
    expect(reviewed.reviewed_by).toBe(manager.userId);
    expect(reviewed.accepted_at).not.toBeNull();
  });

  it('refuses the signed-out, residents, another organisation\'s manager and bad ids, in the envelope', async () => {
    const base = `/api/CaseFile/lease-up/${applicationId}`;
    const routes = [
      (who?: Auth) => get(base, who),
      (who?: Auth) => get(`${base}/documents/${payStubId}/file`, who),
      (who?: Auth) => (who ? post(`${base}/documents/${payStubId}/review`, who, { decision: 'accept' }) : stack.app.inject({ method: 'POST', url: `${base}/documents/${payStubId}/review`, payload: { decision: 'accept' } })),
    ];
    for (const route of routes) {
      expect((await route()).statusCode).toBe(401);
      // The applicant's own case: the case file is the manager's.
      const resident = await route(applicant);
      expect(resident.statusCode).toBe(403);
      expect(resident.json()).toMatchObject({ status: 403, data: { code: 'forbidden' } });
      expect((await route(tenant)).statusCode).toBe(403);
      const other = await route(otherManager);
      expect(other.statusCode).toBe(403);
      expect(other.json()).toMatchObject({ status: 403 });
    }
    for (const url of [`/api/CaseFile/lease-up/not-a-uuid`, `/api/CaseFile/lottery/${applicationId}`, `${base}/documents/nope/file`]) {
      const res = await get(url, manager);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    }
    // An unknown case, the application under another kind, an unknown document: 404.
    for (const url of [`/api/CaseFile/lease-up/${UNKNOWN}`, `/api/CaseFile/recertification/${applicationId}`, `${base}/documents/${UNKNOWN}/file`]) {
      const res = await get(url, manager);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404 });
    }
    expect((await post(`${base}/documents/${UNKNOWN}/review`, manager, { decision: 'accept' })).statusCode).toBe(404);
    // Another household's document through this case: 404.
    const tenantDoc = await stack.db
      .selectFrom('household_documents as d')
      .innerJoin('households as h', 'h.id', 'd.household_id')
      .select('d.id')
      .where('h.head_user_id', '=', tenant.userId)
      .executeTakeFirstOrThrow();
    expect((await get(`${base}/documents/${tenantDoc.id}/file`, manager)).statusCode).toBe(404);
    expect((await post(`${base}/documents/${tenantDoc.id}/review`, manager, { decision: 'accept' })).statusCode).toBe(404);
  });

  it('a relocation has the same case file (no comparison: that is recertification\'s)', async () => {
    const household = (await get('/api/Relocation/manager/households', manager)).json().data[0].householdId as string;
    const started = await post('/api/Relocation/manager/start', manager, { householdId: household, reason: 'Boiler replacement' });
    expect(started.statusCode).toBe(201);
    const id = started.json().data.relocationId as string;
    const file = await eventually(async () => {
      const r = await get(`/api/CaseFile/relocation/${id}`, manager);
      return r.statusCode === 200 && r.json().data;
    });
    expect(file).toMatchObject({ kind: 'relocation', householdId: household, changes: null, ami: { incomeFit: null } });
    expect(file.members.length).toBeGreaterThan(0);
    expect(file.documents.some((d: { documentType: string }) => d.documentType === 'pay_stub')).toBe(true);
    expect((await get(`/api/CaseFile/relocation/${id}`, tenant)).statusCode).toBe(403);
    expect((await get(`/api/CaseFile/relocation/${id}`, otherManager)).statusCode).toBe(403);
    expect((await get(`/api/CaseFile/lease-up/${id}`, manager)).statusCode).toBe(404);
  });

  it('the recertification review shows what changed since the last approved certification (two cycles)', async () => {
    const annual = (await get(`${RECERT}/status`, tenant)).json().data;
    const first = annual.caseId as string;
    expect((await post(`${RECERT}/${first}/ConfirmProfile`, tenant)).statusCode).toBe(200);
    expect((await post(`${RECERT}/${first}/SubmitDocuments`, tenant)).statusCode).toBe(200);
    expect((await post(`${RECERT}/manager/${first}/GenerateTIC`, manager)).statusCode).toBe(200);
    let res = await post(`${RECERT}/${first}/SignTIC`, tenant, { signatureBase64: PNG });
    for (const s of (res.json().data.view.signers as { id: string; isHead: boolean }[]).filter((g) => !g.isHead)) {
      res = await post(`${RECERT}/${first}/SignTIC`, tenant, { signerId: s.id, signatureBase64: PNG });
    }
    expect(res.json().data.stage).toBe('documents_signed_awaiting_approval');
    // Nothing approved before this cycle: nothing to compare with.
    expect((await get(`/api/CaseFile/recertification/${first}`, manager)).json().data.changes).toBeNull();
    expect((await post(`${RECERT}/manager/${first}/Approve`, manager)).json().data.stage).toBe('completed');
    const record = await eventually(() => stack.db.selectFrom('certification_records').select(['facts_sealed']).where('case_id', '=', first).executeTakeFirst());
    // Sealed at rest: no income figure in the stored row.
    expect(record.facts_sealed).not.toContain('52000');
    expect(record.facts_sealed).not.toContain('City Hospital');

    // The household's income changes after the approval; the next cycle opens.
    const incomes = (await get('/api/HouseholdIncome', tenant)).json().data as { id: string; amount: number; memberName: string; annualAmount: number }[];
    const { memberName: _m, annualAmount: _a, ...income } = incomes[0]!;
    expect((await post('/api/HouseholdIncome/CreateOrUpdateIncome', tenant, { ...income, amount: 2300 })).statusCode).toBe(200);
    const opened = await post(`${RECERT}/manager/interim/${annual.view.householdId}`, manager, { reason: 'income_change' });
    expect(opened.statusCode).toBe(201);
    const second = opened.json().data.caseId as string;
    expect(second).not.toBe(first);

    const file = await eventually(async () => {
      const r = await get(`/api/CaseFile/recertification/${second}`, manager);
      return r.statusCode === 200 && r.json().data;
    });
    expect(file.changes.since).toBeTruthy();
    expect(file.changes.incomes).toEqual([
      expect.objectContaining({ change: 'changed', before: expect.objectContaining({ amount: 2000, annual: 52_000 }), after: expect.objectContaining({ amount: 2300, annual: 59_800 }) }),
    ]);
    expect(file.changes.totalIncome).toEqual({ before: 52_000, after: 59_800 });
    expect(file.changes.members).toEqual([]);
    expect(file.changes.assets).toEqual([]);
    // The tenant and another organisation's manager may not read it.
    expect((await get(`/api/CaseFile/recertification/${second}`, tenant)).statusCode).toBe(403);
    expect((await get(`/api/CaseFile/recertification/${second}`, otherManager)).statusCode).toBe(403);
  }, 150_000);
});
