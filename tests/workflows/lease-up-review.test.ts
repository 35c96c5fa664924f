import { recordHistory } from '../helpers/histories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLeaseUpView } from '../../workflows/lease-up.messages';
import { leaseUpFinished as finishedRefusal } from '../../domain';
import { findTemplate } from '../../infra/notifications/templates';
import { startLeaseUpTimeSkipping } from '../helpers/lease-up-env';
import { eventually } from '../helpers/stack';

type Env = Awaited<ReturnType<typeof startLeaseUpTimeSkipping>>;

/** Weekdays (Monday to Friday) after the day of `from`, up to and including the day of `to`. */
function weekdaysBetween(from: string, to: string): number {
  let count = 0;
  for (let day = Date.parse(from.slice(0, 10)) + 86_400_000; day <= Date.parse(to.slice(0, 10)); day += 86_400_000) {
    if (![0, 6].includes(new Date(day).getUTCDay())) count += 1;
  }
  return count;
}

/** Documentation review, consent, decisions and appeals, with their timers skipped through. */
describe.sequential('lease-up workflow: review, documents, consent and appeals (time skipping)', () => {
  let t: Env;
  beforeAll(async () => {
    t = await startLeaseUpTimeSkipping();
  }, 180_000);
  afterAll(() => t?.close());

  const inboxTasks = (caseId: string) => t.db.selectFrom('manager_tasks').selectAll().where('case_id', '=', caseId).execute();

  it('rejected documents and requested documents: every item answered, a due date with reminder and overdue flag', async () => {
    const { handle, input } = await t.start();
    const me = (extra = {}) => t.applicant(input.applicantUserId, extra);
    expect(await t.refusal(t.send(handle, 'RejectDocuments', t.manager({ documents: [] })))).toBe('documentsRequired');
    const stub = await t.db
      .insertInto('household_documents')
      .values({ household_id: input.householdId, document_type: 'PayStub', file_name: 'march.pdf', content_type: 'application/pdf', size_bytes: 1000, uploaded_by: input.applicantUserId })
      .returning('id')
      .executeTakeFirstOrThrow();
    let view = await t.send(handle, 'RejectDocuments', t.manager({ documents: [{ item: 'Pay stub March', documentId: stub.id, reason: 'Unreadable scan' }] }));
    expect(view).toMatchObject({ currentStep: 'additional_documents', outstandingDocuments: [{ item: 'Pay stub March', kind: 'rejected', reason: 'Unreadable scan' }] });
    // The household's document is marked rejected with the reason, for My Documents to show.
    const marked = await t.db.selectFrom('household_documents').select(['rejected_by_manager', 'rejection_reason']).where('id', '=', stub.id).executeTakeFirstOrThrow();
    expect(marked).toEqual({ rejected_by_manager: true, rejection_reason: 'Unreadable scan' });
    expect(view.timeline.find((s) => s.step === 'additional_documents')?.state).toBe('current');
    expect(await t.refusal(t.send(handle, 'SubmitAdditionalDocuments', me({ documents: [] })))).toBe('answerEveryDocument');
    view = await t.send(handle, 'SubmitAdditionalDocuments', me({ documents: [{ item: 'Pay stub March', documentId: input.householdId }] }));
    expect(view).toMatchObject({ currentStep: 'documentation_review', outstandingDocuments: [] });

    // Second round, with a due date: when it passes, a reminder and an overdue task (no automatic rejection).
    const dueAt = await t.inHours(48);
    view = await t.send(handle, 'RequestAdditionalDocuments', t.manager({ documentTypes: ['Bank statement', 'Tax return 2025'], note: 'Last 6 months', dueAt }));
    expect(view.pendingTasks).toContainEqual({ role: 'applicant', action: 'SubmitAdditionalDocuments', dueAt, overdue: false });
    await t.env.sleep('49 hours');
    view = await eventually(async () => {
      const v = await handle.query(getLeaseUpView);
      return v.documentsOverdue ? v : undefined;
    });
    expect(view).toMatchObject({ status: 'in_review', currentStep: 'additional_documents' });
    const tasks = await eventually(async () => {
      const rows = await inboxTasks(input.applicationId);
      return rows.some((r) => r.overdue) ? rows : undefined;
    });
    expect(tasks).toContainEqual(expect.objectContaining({ action: 'FollowUpAdditionalDocuments', overdue: true }));
    const notices = await t.db.selectFrom('notification_outbox').select('template').where('user_id', '=', input.applicantUserId).execute();
    expect(notices.map((n) => n.template)).toEqual(['lease-up-documents-overdue']);
    // The delivery worker knows the template and writes it in each of the four languages.
    for (const language of ['en', 'es', 'zh', 'bn'] as const) {
      const message = findTemplate('lease-up-documents-overdue')!.render(language, { dueAt }, { baseUrl: 'http://portal.test' });
      expect(message.text).toContain(dueAt.slice(0, 10));
    }
    for (const name of ['lease-up-offer-expired', 'lease-up-appointment-reminder']) expect(findTemplate(name), name).toBeDefined();
    // Answering one item of two is not enough; a reason instead of a file counts as an answer.
    expect(await t.refusal(t.send(handle, 'SubmitAdditionalDocuments', me({ documents: [{ item: 'Bank statement', documentId: input.householdId }] })))).toBe('answerEveryDocument');
    view = await t.send(handle, 'SubmitAdditionalDocuments', me({ documents: [{ item: 'Bank statement', documentId: input.householdId }, { item: 'Tax return 2025', reason: 'Not filed yet' }] }));
    expect(view).toMatchObject({ currentStep: 'documentation_review', documentsOverdue: false });
  });

  it('screening consent given goes to the decision; denied is flagged for the manager', async () => {
    for (const [action, consent] of [['ProvideConsentForScreening', 'given'], ['DenyConsentForScreening', 'denied']] as const) {
      const { handle, input } = await t.start();
      await t.send(handle, 'RequestConsentForScreening', t.manager());
      const view = await t.send(handle, action, t.applicant(input.applicantUserId));
      expect(view).toMatchObject({ currentStep: 'decision', consent, status: 'in_review' });
      expect(view.availableActions.manager).toEqual(expect.arrayContaining(['ProceedToAppointmentScheduling', 'RejectApplication']));
      // UpdateInfo changes the household's figures, never the step.
      const updated = await t.send(handle, 'UpdateInfo', t.applicant(input.applicantUserId, { householdSize: 4, householdIncome: 71_000 }));
      expect(updated).toMatchObject({ currentStep: 'decision', householdSize: 4, householdIncome: 71_000, consent });
      expect(updated.history.at(-1)).toMatchObject({ action: 'UpdateInfo', by: 'applicant' });
    }
  });

  it('rejection then an appeal inside the window: escalated after 5 business days, granted back to review', async () => {
    const { handle, input } = await t.start();
    await t.send(handle, 'SubmitProfile', t.applicant(input.applicantUserId));
    await t.send(handle, 'MarkAsComplete', t.manager());
    let view = await t.send(handle, 'RejectApplication', t.manager({ reason: 'Missing employer letter' }));
    expect(view).toMatchObject({ status: 'rejected', rejectedAtStep: 'decision' });
    expect(Date.parse(view.appealDeadline!) - Date.parse(view.updatedAt)).toBe(14 * 86_400_000);
    await t.env.sleep('10 days');
    view = await t.send(handle, 'Appeal', t.applicant(input.applicantUserId, { reason: 'Employer letter now uploaded' }));
    expect(view.status).toBe('appeal_submitted');
    expect(view.pendingTasks).toContainEqual(expect.objectContaining({ role: 'manager', action: 'GrantAppeal', dueAt: view.appealDecisionDueAt, overdue: false }));
    // 5 business days (weekends skipped, whatever weekday the appeal falls on) without a decision: escalated.
    expect(weekdaysBetween(view.updatedAt, view.appealDecisionDueAt!)).toBe(5);
    expect(view.appealDecisionDueAt!.slice(10)).toBe(view.updatedAt.slice(10));
    await t.env.sleep('8 days');
    const tasks = await eventually(async () => {
      const rows = await inboxTasks(input.applicationId);
      return rows.some((r) => r.action === 'GrantAppeal' && r.overdue) ? rows : undefined;
    });
    expect(tasks[0]!.due_at).not.toBeNull();
    // The original appeal window has passed meanwhile, but an appeal under review is not closed by it.
    view = await handle.query(getLeaseUpView);
    expect(view).toMatchObject({ status: 'appeal_submitted', appealEscalated: true });
    view = await t.send(handle, 'GrantAppeal', t.manager());
    expect(view).toMatchObject({ status: 'in_review', currentStep: 'decision', rejectionReason: null });
    const granted = await t.db.selectFrom('notification_outbox').select('template').where('user_id', '=', input.applicantUserId).where('template', 'like', 'lease-up-appeal-%').execute();
    expect(granted.map((n) => n.template)).toEqual(['lease-up-appeal-granted']);
    await recordHistory('lease-up-appeal-granted', handle);
  });

  it('after the appeal window the application closes and an appeal answers "appeal period passed"; a denied appeal closes', async () => {
    const { handle, input } = await t.start();
    await t.send(handle, 'SubmitProfile', t.applicant(input.applicantUserId));
    await t.send(handle, 'MarkAsComplete', t.manager());
    await t.send(handle, 'RejectApplication', t.manager({ reason: 'Income documents inconsistent' }));
    await t.env.sleep('15 days');
    expect(await handle.result()).toBe('closed');
    const last = await eventually(async () => {
      const r = await t.db.selectFrom('applications').select('status').where('id', '=', input.applicationId).executeTakeFirst();
      return r?.status === 'closed' ? r : undefined;
    });
    expect(last.status).toBe('closed');
    const closed = await handle.query(getLeaseUpView);
    expect(closed.history.map((h) => h.action)).toContain('AppealWindowClosed');
    // The API answers actions on a finished application with this (the workflow takes no Updates).
    expect(finishedRefusal(closed, 'Appeal')).toBe('appealPeriodPassed');
    expect(finishedRefusal(closed, 'Withdraw')).toBe('applicationClosed');

    // Appeal refused without a submitted profile; denied appeal closes the application.
    const other = await t.start();
    await t.send(other.handle, 'RequestConsentForScreening', t.manager());
    await t.send(other.handle, 'ProvideConsentForScreening', t.applicant(other.input.applicantUserId));
    await t.send(other.handle, 'RejectApplication', t.manager({ reason: 'Screening result' }));
    expect(await t.refusal(t.send(other.handle, 'Appeal', t.applicant(other.input.applicantUserId, { reason: 'Please review' })))).toBe('profileNotSubmitted');
    const stuck = await t.start();
    await t.send(stuck.handle, 'SubmitProfile', t.applicant(stuck.input.applicantUserId));
    await t.send(stuck.handle, 'MarkAsComplete', t.manager());
    await t.send(stuck.handle, 'RejectApplication', t.manager({ reason: 'Screening result' }));
    await t.send(stuck.handle, 'Appeal', t.applicant(stuck.input.applicantUserId, { reason: 'Please review' }));
    const denied = await t.send(stuck.handle, 'DenyAppeal', t.manager({ reason: 'Result confirmed' }));
    expect(denied.status).toBe('closed');
    const deniedNotices = await t.db.selectFrom('notification_outbox').select('template').where('user_id', '=', stuck.input.applicantUserId).where('template', 'like', 'lease-up-appeal-%').execute();
    expect(deniedNotices.map((n) => n.template)).toEqual(['lease-up-appeal-denied']);
    expect(await stuck.handle.result()).toBe('closed');
  });

  it('every validator refuses with the spec text where one exists, and changes nothing', async () => {
    const { handle, input } = await t.start();
    const me = (extra = {}) => t.applicant(input.applicantUserId, extra);
    const before = await eventually(async () => {
      const v = await handle.query(getLeaseUpView);
      return v.logNumber ? v : undefined;
    });
    const refusals: [Parameters<Env['send']>[1], ReturnType<Env['manager']>, string][] = [
      ['MarkAsComplete', t.manager(), 'profileNotSubmitted'],
      ['Appeal', me({ reason: 'x' }), 'actionNotAllowedNow'],
      ['RespondToUnitOffer', me({ offerId: 'offer-1', accept: true }), 'unitsNotOfferedYet'],
      ['ProceedWithUnitOffer', t.manager(), 'actionNotAllowedNow'],
      ['SignTIC', me(), 'actionNotAllowedNow'],
      ['SignLeaseLetter', me(), 'leaseLetterNotGeneratedYet'],
      ['GenerateIncomeCertification', t.manager(), 'actionNotAllowedNow'],
      ['ScheduleAppointment', me({ slot: new Date().toISOString() }), 'actionNotAllowedNow'],
      ['ProceedToAppointmentScheduling', t.manager({ slots: [] }), 'actionNotAllowedNow'],
      ['OfferUnit', t.manager(), 'actionNotAllowedNow'],
      ['GrantAppeal', t.manager(), 'actionNotAllowedNow'],
      ['CompleteLeaseSigning', t.manager(), 'actionNotAllowedNow'],
      ['SubmitAdditionalDocuments', me({ documents: [] }), 'actionNotAllowedNow'],
      ['RequestAdditionalDocuments', t.manager({ documentTypes: [] }), 'documentsRequired'],
      ['SubmitProfile', t.manager(), 'forbidden'],
    ];
    for (const [action, actionInput, code] of refusals) {
      expect([action, await t.refusal(t.send(handle, action, actionInput))]).toEqual([action, code]);
    }
    // At the decision: slots must be in the future; at scheduling: only an offered future slot.
    await t.send(handle, 'SubmitProfile', me());
    expect(await t.refusal(t.send(handle, 'SubmitProfile', me()))).toBe('profileAlreadySubmitted');
    await t.send(handle, 'MarkAsComplete', t.manager());
    const past = new Date((await t.env.currentTimeMs()) - 3_600_000).toISOString();
    expect(await t.refusal(t.send(handle, 'ProceedToAppointmentScheduling', t.manager({ slots: [past] })))).toBe('slotsRequired');
    const slot = await t.inHours(30);
    await t.send(handle, 'ProceedToAppointmentScheduling', t.manager({ slots: [slot] }));
    expect(await t.refusal(t.send(handle, 'ScheduleAppointment', me({ slot: await t.inHours(31) })))).toBe('slotUnavailable');
    await t.send(handle, 'ScheduleAppointment', me({ slot }));
    expect(await t.refusal(t.send(handle, 'ProceedWithUnitOffer', t.manager()))).toBe('unitsNotOfferedYet');
    expect(await t.refusal(t.send(handle, 'OfferUnit', t.manager({ units: [] })))).toBe('unitsRequired');
    await t.env.sleep('31 hours');
    expect(await t.refusal(t.send(handle, 'RescheduleAppointment', me({ slot })))).toBe('appointmentPassed');
    const after = await handle.query(getLeaseUpView);
    expect(after.history.filter((h) => h.by !== 'system').length).toBe(before.history.length + 4);
  });
});
