import { availableActions, tasksOf, type CaseTimer, type ChangeContext } from './case';
import { TIMELINE_STEPS, type LeaseUpView, type PendingTask, type TimerEvent } from './lease-up';
import { isFinalLeaseUp, type LeaseUpState } from './lease-up.state';
import { nextInLineTask } from './lottery-inbox';
import type { ApplicantAction, ManagerAction } from './lease-up.inputs';
import { LEASE_UP_TABLE, leaseUpFinished } from './lease-up.table';

/**
 * A durable timer of the application fired ("T" rows of workflows.md): changes the state only if
 * what it guarded still stands (the token names the round, offer or booking it was set for).
 */
export function fireLeaseUpTimer(s: LeaseUpState, timer: CaseTimer, ctx: ChangeContext): boolean {
  const event = timer.event as TimerEvent;
  const notice = (template: string, params: Record<string, string>) =>
    ctx.notify({ userId: s.input.applicantUserId, template, params: { applicationId: s.input.applicationId, ...params }, dedupeKey: `lease-up:${s.input.applicationId}:${event}:${timer.token}` });
  switch (event) {
    case 'AdditionalDocumentsOverdue':
      if (!(s.status === 'in_review' && s.step === 'additional_documents' && timer.token === `docs-${s.documentRounds}`)) return false;
      s.documentsOverdue = true;
      notice('lease-up-documents-overdue', { dueAt: s.documentsDueAt ?? '' });
      return true;
    case 'UnitOfferExpired': {
      const offer = s.offers.find((o) => o.offerId === timer.token && o.status === 'open');
      if (!offer) return false;
      offer.status = 'expired';
      notice('lease-up-offer-expired', { offerId: timer.token });
      return true;
    }
    case 'AppealWindowClosed':
      if (!(s.status === 'rejected' && timer.token === `rej-${s.rejections}`)) return false;
      s.status = 'closed';
      return true;
    case 'AppealDecisionOverdue':
      if (!(s.status === 'appeal_submitted' && timer.token === `appeal-${s.appeals}`)) return false;
      s.appealEscalated = true;
      return true;
    case 'AppointmentReminderDay':
    case 'AppointmentReminderHour':
      if (!(s.status === 'in_review' && s.step === 'screening' && timer.token === `appt-${s.bookings}`)) return false;
      notice('lease-up-appointment-reminder', { appointmentAt: s.appointmentAt ?? '' });
      return true;
  }
}

/** What each role may do now: the actions whose "allowed when" holds (table column `when`). */
export function leaseUpAvailable(s: LeaseUpState, now: number): LeaseUpView['availableActions'] {
  const available = availableActions(LEASE_UP_TABLE, ['applicant', 'manager'], s, now, leaseUpFinished);
  return { applicant: available.applicant as ApplicantAction[], manager: available.manager as ManagerAction[] };
}

/** The view the query returns and the projection stores: facts, timeline, history, tasks, actions. */
export function leaseUpView(s: LeaseUpState, now: number): LeaseUpView {
  const available = leaseUpAvailable(s, now);
  const tasks: PendingTask[] = tasksOf(LEASE_UP_TABLE, available, s);
  // Documents overdue: no automatic rejection, the manager follows up (workflows.md).
  if (s.status === 'in_review' && s.step === 'additional_documents' && s.documentsOverdue) {
    tasks.push({ role: 'manager', action: 'FollowUpAdditionalDocuments', dueAt: s.documentsDueAt, overdue: true });
  }
  // Invited next in line after a released place: the inbox says why (lottery cases only).
  const nextInLine = nextInLineTask(s);
  if (nextInLine) tasks.push(nextInLine);
  const current = TIMELINE_STEPS.indexOf(s.step);
  const final = isFinalLeaseUp(s);
  const skipped = (step: (typeof TIMELINE_STEPS)[number]) => s.skipped.includes(step);
  return {
    applicationId: s.input.applicationId,
    logNumber: s.logNumber,
    householdId: s.input.householdId,
    opportunityId: s.input.opportunityId,
    organizationId: s.input.organizationId,
    applicantUserId: s.input.applicantUserId,
    householdSize: s.householdSize,
    householdIncome: s.householdIncome,
    status: s.status,
    currentStep: s.step,
    timeline: TIMELINE_STEPS.map((step, index) => ({
      step,
      state:
        index < current
          ? skipped(step) ? 'skipped' : 'complete'
          : index === current
            ? final ? 'complete' : 'current'
            : skipped(step) ? 'skipped' : 'pending',
      at: s.stepStartedAt[step] ?? null,
    })),
    history: [...s.history],
    pendingTasks: tasks,
    availableActions: available,
    profileSubmitted: s.profileSubmitted,
    consent: s.consent,
    rejectionReason: s.rejectionReason,
    rejectedAtStep: s.rejectedAtStep,
    outstandingDocuments: s.outstanding.map((d) => ({ ...d })),
    documentsNote: s.documentsNote,
    documentsDueAt: s.documentsDueAt,
    documentsOverdue: s.documentsOverdue,
    appointmentSlots: [...s.appointmentSlots],
    appointmentAt: s.appointmentAt,
    offers: s.offers.map((o) => ({ ...o })),
    heldUnitId: s.status === 'withdrawn' ? null : (s.offers.find((o) => o.status === 'accepted')?.unitId ?? null),
    tic: s.tic ? { ...s.tic, signatures: [...s.tic.signatures] } : null,
    leaseLetter: s.leaseLetter ? { ...s.leaseLetter, signatures: [...s.leaseLetter.signatures] } : null,
    appealDeadline: s.appealDeadline,
    appealReason: s.appealReason,
    appealDecisionDueAt: s.appealDecisionDueAt,
    appealEscalated: s.appealEscalated,
    settings: s.settings,
    appliedAt: s.appliedAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}
