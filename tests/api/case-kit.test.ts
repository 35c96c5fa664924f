import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { dataConverter } from '../../infra/temporal/connection';
import { leaseUpWorkflowId, recertificationWorkflowId, relocationWorkflowId } from '../../infra/temporal/ids';
import { SIGNATURE_PNG_BASE64, makeUser } from '../helpers/lease-up-users';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { grantAccess, organizationId } from '../helpers/ambassador';

type Auth = { authorization: string; userId?: string };

/**
 * The case kit through the API, the same for every case kind: concurrent actions on one case run one
 * at a time (no double signature, no double approval, no broken history), a refusal answers one
 * status whatever kind refused it, and a case stays readable from its last projected view once its
 * workflow history is gone.
 */
describe('the case kit through the API', () => {
  let stack: Stack;
  let manager: Auth;
  let tenant: Auth & { userId: string };
  let opportunityId: string;

  beforeAll(async () => {
    stack = await startStack();
    [manager, tenant] = await Promise.all([signIn(stack.app, 'Manager'), signIn(stack.app, 'Tenant')]);
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).orderBy('name').executeTakeFirstOrThrow();
    opportunityId = opportunity.id;
  }, 180_000);
  afterAll(() => stack?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: Auth, payload?: object) =>
    stack.app.inject({ method, url, headers: { authorization: who.authorization }, ...(payload ? { payload } : {}) });
  const managerAct = (id: string, action: string, body?: object) => call('POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${id}/${action}`, manager, body ?? {});

  async function apply(): Promise<{ applicant: Auth & { userId: string }; id: string }> {
    const applicant = await makeUser(stack, { role: 'User' });
    const res = await call('POST', '/api/LeaseUpApplication/apply', applicant, { opportunityId, householdSize: 2, householdIncome: 50_000, agreeToTerms: true });
    expect(res.statusCode).toBe(201);
    return { applicant, id: res.json().data.applicationId };
  }

  /** An application taken to income certification with the TIC generated (the head is its only signer). */
  async function atIncomeCertification() {
    const { applicant, id } = await apply();
    expect((await call('POST', `/api/Household/submit-applicant-profile/${id}`, applicant)).statusCode).toBe(200);
    expect((await managerAct(id, 'MarkAsComplete')).statusCode).toBe(200);
    const slot = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await managerAct(id, 'ProceedToAppointmentScheduling', { slots: [slot] })).statusCode).toBe(200);
    expect((await call('POST', '/api/LeaseUpApplication/schedule-appointment', applicant, { applicationId: id, slot })).statusCode).toBe(200);
    const taken = await stack.db.selectFrom('applications').select('held_unit_id').where('held_unit_id', 'is not', null).execute();
    const unit = await stack.db
      .selectFrom('units')
      .select('id')
      .where('opportunity_id', '=', opportunityId)
      .where('id', 'not in', taken.length ? taken.map((t) => t.held_unit_id!) : ['00000000-0000-4000-8000-000000000000'])
      .executeTakeFirstOrThrow();
    const offered = await managerAct(id, 'OfferUnit', { unitIds: [unit.id] });
    expect(offered.statusCode).toBe(200);
    const offerId = offered.json().data.offers[0].offerId;
    expect((await call('POST', '/api/LeaseUpApplication/unit-offer/respond', applicant, { applicationId: id, offerId, accept: true })).statusCode).toBe(200);
    expect((await managerAct(id, 'ProceedWithUnitOffer')).statusCode).toBe(200);
    expect((await managerAct(id, 'GenerateIncomeCertification')).json().data.tic.signers).toHaveLength(1);
    return { applicant, id };
  }

  const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode).sort();

  it('20 concurrent withdrawals, 20 times: one succeeds each time, every application stays readable and its history replays', async () => {
    const ids: string[] = [];
    for (let round = 0; round < 20; round++) {
      const { applicant, id } = await apply();
      const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', `/api/LeaseUpApplication/withdraw-application/${id}`, applicant)));
      expect(statuses(answers)).toEqual([200, ...Array(19).fill(409)]);
      for (const refused of answers.filter((a) => a.statusCode === 409)) expect(refused.json().data.code).toBe('applicationClosed');
      ids.push(id);
    }
    for (const id of ids) {
      const detail = await call('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, manager);
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data.status).toBe('withdrawn');
      expect((await call('GET', `/api/LeaseUpApplication/timeline/${id}`, manager)).statusCode).toBe(200);
    }
    const histories = await Promise.all(ids.map(async (id) => ({ workflowId: leaseUpWorkflowId(id), history: await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).fetchHistory() })));
    const results = Worker.runReplayHistories({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter: dataConverter(stack.config) }, histories);
    for await (const result of results) expect(result.error, result.workflowId).toBeUndefined();
  }, 240_000);

  it('20 concurrent signatures of one signer give one signature; two concurrent approvals give one approval', async () => {
    const { applicant, id } = await atIncomeCertification();
    const signs = await Promise.all(Array.from({ length: 20 }, () => call('PUT', `/api/Document/applytenantsignaturetotic/${id}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64 })));
    expect(statuses(signs)).toEqual([200, ...Array(19).fill(409)]);
    for (const refused of signs.filter((s) => s.statusCode === 409)) expect(refused.json().data.code).toBe('alreadySigned');
    const view = (await call('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, applicant)).json().data;
    expect(view.tic.signatures).toHaveLength(1);

    const approvals = await Promise.all([managerAct(id, 'ApproveIncomeCertification'), managerAct(id, 'ApproveIncomeCertification')]);
    expect(statuses(approvals)).toEqual([200, 409]);
    const after = (await call('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, manager)).json().data;
    expect(after.currentStep).toBe('lease_signing');
    expect(after.history.filter((h: { action: string }) => h.action === 'ApproveIncomeCertification')).toHaveLength(1);
  }, 120_000);

  it('a refusal answers the same status whichever kind refuses it (signing while acting for someone: 403)', async () => {
    const { applicant, id } = await atIncomeCertification();
    // An ambassador acting for the applicant (impersonation): the token names both users.
    const ambassador = await signIn(stack.app, 'HousingAmbassador');
    // Only while the households have granted the ambassador's organisation access.
    const riverside = await organizationId(stack.db);
    for (const userId of [applicant.userId, tenant.userId]) await grantAccess(stack.db, { userId, organizationId: riverside, requestedBy: ambassador.userId });
    const acting = { authorization: `Bearer ${stack.app.signAccessToken({ sub: applicant.userId, role: 'User', realUserId: ambassador.userId }).token}` };
    const leaseUp = await call('PUT', `/api/Document/applytenantsignaturetotic/${id}`, acting, { signatureBase64: SIGNATURE_PNG_BASE64 });
    const caseId = (await call('GET', '/api/TenantRecertificationStatus/status', tenant)).json().data.caseId;
    await call('POST', `/api/TenantRecertificationStatus/${caseId}/ConfirmProfile`, tenant);
    await call('POST', `/api/TenantRecertificationStatus/${caseId}/SubmitDocuments`, tenant);
    await call('POST', `/api/TenantRecertificationStatus/manager/${caseId}/GenerateTIC`, manager);
    const tenantActing = { authorization: `Bearer ${stack.app.signAccessToken({ sub: tenant.userId, role: 'Tenant', realUserId: ambassador.userId }).token}` };
    const recert = await call('POST', `/api/TenantRecertificationStatus/${caseId}/SignTIC`, tenantActing, { signatureBase64: SIGNATURE_PNG_BASE64 });
    for (const refused of [leaseUp, recert]) expect(refused.json()).toMatchObject({ status: 403, data: { code: 'signingWhileImpersonating' } });
  }, 120_000);

  it('recertification: two concurrent approvals give one; once its workflow is gone the case, its timeline and its TIC are still served', async () => {
    const caseId = (await call('GET', '/api/TenantRecertificationStatus/status', tenant)).json().data.caseId;
    const signers = (await call('GET', `/api/TenantRecertificationStatus/case/${caseId}`, tenant)).json().data.view.signers as { id: string; isHead: boolean; signedAt: string | null }[];
    for (const signer of signers.filter((s) => !s.signedAt)) {
      const signed = await call('POST', `/api/TenantRecertificationStatus/${caseId}/SignTIC`, tenant, { signatureBase64: SIGNATURE_PNG_BASE64, ...(signer.isHead ? {} : { signerId: signer.id }) });
      expect(signed.statusCode).toBe(200);
    }
    const approvals = await Promise.all([1, 2].map(() => call('POST', `/api/TenantRecertificationStatus/manager/${caseId}/Approve`, manager)));
    expect(statuses(approvals)).toEqual([200, 409]);
    await deleteWorkflow(recertificationWorkflowId(caseId), async () => {
      const row = await stack.db.selectFrom('recertification_cases').select('status').where('id', '=', caseId).executeTakeFirst();
      return row?.status === 'completed';
    });
    const detail = await call('GET', `/api/TenantRecertificationStatus/case/${caseId}`, manager);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({ status: 'completed', view: { history: expect.arrayContaining([expect.objectContaining({ action: 'Approve' })]) } });
    const tic = await call('GET', `/api/TenantRecertificationStatus/case/${caseId}/tic`, tenant);
    expect(tic.json().data.contentType).toBe('application/pdf');
  }, 120_000);

  it('relocation: two concurrent returns give one; once its workflow is gone the case is still served', async () => {
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow();
    const started = await call('POST', '/api/Relocation/manager/start', manager, { householdId: household.id, reason: 'Boiler replacement' });
    expect(started.statusCode).toBe(201);
    const id = started.json().data.relocationId;
    await stack.db.deleteFrom('profile_locks').where('household_id', '=', household.id).execute();
    expect((await call('POST', `/api/Relocation/submit-profile/${id}`, tenant)).statusCode).toBe(200);
    const offered = await call('POST', `/api/Relocation/manager/${id}/offer-unit`, manager, { unitNumber: '2C', bedroomType: '1 bedroom', address: '5 Side St' });
    const offerId = offered.json().data.offers[0].offerId;
    expect((await call('POST', `/api/Relocation/${id}/unit-offers/${offerId}/accept`, tenant)).statusCode).toBe(200);
    const slot = (await call('GET', `/api/Relocation/slots/${id}`, tenant)).json().data.slots[0].slotId;
    expect((await call('POST', '/api/Relocation/book-slot', tenant, { relocationId: id, slotId: slot })).statusCode).toBe(200);
    expect((await call('POST', `/api/Relocation/manager/${id}/confirm-move`, manager)).statusCode).toBe(200);
    const returns = await Promise.all([1, 2].map(() => call('POST', `/api/Relocation/manager/${id}/confirm-return`, manager)));
    expect(statuses(returns)).toEqual([200, 409]);
    await deleteWorkflow(relocationWorkflowId(id), async () => {
      const row = await stack.db.selectFrom('relocation_cases').select('status').where('id', '=', id).executeTakeFirst();
      return row?.status === 'returned';
    });
    const detail = await call('GET', `/api/Relocation/case/${id}`, tenant);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({ status: 'returned', underRelocation: false });
  }, 120_000);

  it('lease-up: once an ended application’s workflow is gone, its detail, timeline and letters are still served', async () => {
    const { applicant, id } = await atIncomeCertification();
    expect((await call('PUT', `/api/Document/applytenantsignaturetotic/${id}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64 })).statusCode).toBe(200);
    expect((await managerAct(id, 'ApproveIncomeCertification')).statusCode).toBe(200);
    expect((await call('POST', `/api/LeaseUpApplication/sign-lease-document/${id}`, applicant, { signatureBase64: SIGNATURE_PNG_BASE64 })).statusCode).toBe(200);
    expect((await managerAct(id, 'CompleteLeaseSigning')).json().data.status).toBe('ended');
    await deleteWorkflow(leaseUpWorkflowId(id), async () => {
      const row = await stack.db.selectFrom('applications').select('status').where('id', '=', id).executeTakeFirst();
      return row?.status === 'ended';
    });
    const detail = await call('GET', `/api/LeaseUpApplication/getDetailsById/${id}`, applicant);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toMatchObject({ status: 'ended', currentStep: 'end', viewerRole: 'applicant' });
    expect((await call('GET', `/api/LeaseUpApplication/timeline/${id}`, manager)).json().data.timeline.at(-1)).toMatchObject({ step: 'end', state: 'complete' });
    for (const kind of ['tic', 'lease']) {
      const letter = await call('GET', `/api/LeaseUpApplication/letter/${id}/${kind}`, applicant);
      expect(letter.statusCode, kind).toBe(200);
      expect(letter.headers['content-type']).toBe('application/pdf');
    }
    // An action on it answers as the finished case would.
    expect((await call('POST', `/api/LeaseUpApplication/withdraw-application/${id}`, applicant)).json()).toMatchObject({ status: 409, data: { code: 'applicationClosed' } });
  }, 180_000);

  it('a document rejected through the workflow updates the household’s stored completion', async () => {
    const applicant = await signIn(stack.app, 'User');
    const household = await stack.db.selectFrom('households').select(['id', 'profile_completion']).where('head_user_id', '=', applicant.userId).executeTakeFirstOrThrow();
    expect(household.profile_completion).toBe(100);
    const document = await stack.db.selectFrom('household_documents').select(['id', 'document_type']).where('household_id', '=', household.id).executeTakeFirstOrThrow();
    const applied = await call('POST', '/api/LeaseUpApplication/apply', applicant, { opportunityId, householdSize: 2, householdIncome: 52_000, agreeToTerms: true });
    const id = applied.json().data.applicationId;
    const rejected = await managerAct(id, 'RejectDocuments', { documents: [{ item: document.document_type, documentId: document.id, reason: 'Unreadable scan' }] });
    expect(rejected.json().data.currentStep).toBe('additional_documents');
    const after = await stack.db.selectFrom('households').select('profile_completion').where('id', '=', household.id).executeTakeFirstOrThrow();
    expect(after.profile_completion).toBeLessThan(100);
    const summary = await call('GET', '/api/Dashboard/getProfileCompletionStatus', applicant);
    expect(summary.json().data).toEqual({ profileCompletion: after.profile_completion, isComplete: false });
  }, 60_000);

  /** Waits for the case to be final in the read model, deletes its workflow and waits until Temporal no longer has it. */
  async function deleteWorkflow(workflowId: string, projectedFinal: () => Promise<boolean>) {
    await eventually(projectedFinal, 30_000);
    const handle = stack.temporal.workflow.getHandle(workflowId);
    await handle.result();
    await stack.temporal.workflowService.deleteWorkflowExecution({ namespace: stack.config.TEMPORAL_NAMESPACE, workflowExecution: { workflowId } });
    await eventually(async () => {
      try {
        await handle.describe();
        return false;
      } catch (error) {
        return error instanceof WorkflowNotFoundError;
      }
    }, 60_000);
  }
});
