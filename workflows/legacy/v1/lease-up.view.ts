import { APPLICANT_ACTIONS, MANAGER_ACTIONS, TIMELINE_STEPS, type ActionInput, type ActorRole, type ApplicantAction, type LeaseUpAction, type LeaseUpView, type ManagerAction } from './domain';
import type { RuleView } from './lease-up.rules';
import type { LeaseUpState } from './lease-up.state';
import { pendingTasks } from './lease-up.tasks';

/** The facts of the state the rules read (copies, so a view never aliases the state). */
export function factsOf(st: LeaseUpState): RuleView {
  return {
    applicationId: st.input.applicationId,
    logNumber: st.logNumber,
    householdId: st.input.householdId,
    opportunityId: st.input.opportunityId,
    organizationId: st.input.organizationId,
    applicantUserId: st.input.applicantUserId,
    householdSize: st.householdSize,
    householdIncome: st.householdIncome,
    status: st.status,
    currentStep: st.step,
    profileSubmitted: st.profileSubmitted,
    consent: st.consent,
    rejectionReason: st.rejectionReason,
    rejectedAtStep: st.rejectedAtStep,
    outstandingDocuments: st.outstanding.map((d) => ({ ...d })),
    documentsNote: st.documentsNote,
    documentsDueAt: st.documentsDueAt,
    documentsOverdue: st.documentsOverdue,
    appointmentSlots: [...st.appointmentSlots],
    appointmentAt: st.appointmentAt,
    offers: st.offers.map((o) => ({ ...o })),
    heldUnitId: st.status === 'withdrawn' ? null : (st.offers.find((o) => o.status === 'accepted')?.unitId ?? null),
    tic: st.tic ? { ...st.tic, signatures: [...st.tic.signatures] } : null,
    leaseLetter: st.leaseLetter ? { ...st.leaseLetter, signatures: [...st.leaseLetter.signatures] } : null,
    appealDeadline: st.appealDeadline,
    appealReason: st.appealReason,
    appealDecisionDueAt: st.appealDecisionDueAt,
    appealEscalated: st.appealEscalated,
    settings: st.settings,
    appliedAt: st.appliedAt,
    updatedAt: st.updatedAt,
    version: st.version,
  };
}

/** What each role may do now: every action whose rule refuses nothing, probed with sample input. */
export function availableActionsOf(st: LeaseUpState, now: number): LeaseUpView['availableActions'] {
  const probe = (role: ActorRole): ActionInput => ({
    actor: { userId: st.input.applicantUserId, role, impersonatedBy: null },
  });
  // Probes ask "is this possible now?" with sample input where an action needs some.
  const sample = (a: LeaseUpAction, role: ActorRole): ActionInput => {
    const base = probe(role);
    if (a === 'RejectDocuments') return { ...base, documents: [{ item: 'x' }] };
    if (a === 'RequestAdditionalDocuments') return { ...base, documentTypes: ['x'] };
    if (a === 'SubmitAdditionalDocuments') return { ...base, documents: st.outstanding.map((d) => ({ item: d.item, reason: 'x' })) };
    if (a === 'ProceedToAppointmentScheduling') return { ...base, slots: [new Date(now + 86_400_000).toISOString()] };
    if (a === 'ScheduleAppointment' || a === 'RescheduleAppointment') {
      return { ...base, slot: st.appointmentSlots.find((s) => Date.parse(s) > now && s !== st.appointmentAt) };
    }
    if (a === 'OfferUnit') return { ...base, units: [{ unitId: '00000000-0000-4000-8000-000000000000', unitNumber: '', bedroomType: '', address: '' }] };
    return base;
  };
  return {
    applicant: APPLICANT_ACTIONS.filter((a): a is ApplicantAction => st.refusal(a, sample(a, 'applicant'), now) === null),
    manager: MANAGER_ACTIONS.filter((a): a is ManagerAction => st.refusal(a, sample(a, 'manager'), now) === null),
  };
}

/** The view the query returns and the projection stores: facts, timeline, history, tasks, actions. */
export function viewOf(st: LeaseUpState, now: number): LeaseUpView {
  const facts = factsOf(st);
  const available = availableActionsOf(st, now);
  const current = TIMELINE_STEPS.indexOf(st.step);
  return {
    ...facts,
    timeline: TIMELINE_STEPS.map((step, index) => ({
      step,
      state:
        index < current
          ? st.skipped.has(step) ? 'skipped' : 'complete'
          : index === current
            ? st.isFinal ? 'complete' : 'current'
            : st.skipped.has(step) ? 'skipped' : 'pending',
      at: st.stepStartedAt.get(step) ?? null,
    })),
    history: [...st.history],
    pendingTasks: pendingTasks(facts, available),
    availableActions: available,
  };
}
