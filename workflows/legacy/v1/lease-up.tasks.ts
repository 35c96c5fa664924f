import type { LeaseUpAction, LeaseUpView, PendingTask } from './domain';
import type { RuleView } from './lease-up.rules';

/** Actions that are possible but are nobody's to-do (a refusal, an optional change, a way out). */
const NOT_A_TASK: readonly LeaseUpAction[] = [
  'Withdraw',
  'UpdateInfo',
  'RescheduleAppointment',
  'RejectApplication',
  'RejectDocuments',
  'RequestAdditionalDocuments',
  'DenyIncomeCertification',
  'DenyAppeal',
];

/**
 * The pending tasks of each role with their due dates: what the applicant's "action needed" and the
 * manager's inbox show. Derived from the state only, so the query and the projection always agree.
 */
export function pendingTasks(v: RuleView, available: LeaseUpView['availableActions']): PendingTask[] {
  const tasks: PendingTask[] = [];
  const openOffers = v.offers.filter((o) => o.status === 'open');
  for (const action of available.applicant) {
    if (NOT_A_TASK.includes(action)) continue;
    if (action === 'SubmitAdditionalDocuments') tasks.push({ role: 'applicant', action, dueAt: v.documentsDueAt, overdue: v.documentsOverdue });
    else if (action === 'RespondToUnitOffer') tasks.push({ role: 'applicant', action, dueAt: openOffers.map((o) => o.expiresAt).sort()[0] ?? null });
    else if (action === 'Appeal') tasks.push({ role: 'applicant', action, dueAt: v.appealDeadline });
    else if (action === 'ScheduleAppointment') tasks.push({ role: 'applicant', action, dueAt: null });
    else tasks.push({ role: 'applicant', action, dueAt: null });
  }
  for (const action of available.manager) {
    if (NOT_A_TASK.includes(action)) continue;
    // While an offer is open or accepted, a further offer is possible but not owed.
    if (action === 'OfferUnit' && v.currentStep === 'unit_offer' && openOffers.length > 0) continue;
    if (action === 'GrantAppeal') tasks.push({ role: 'manager', action, dueAt: v.appealDecisionDueAt, overdue: v.appealEscalated });
    else tasks.push({ role: 'manager', action, dueAt: null });
  }
  // Documents overdue: no automatic rejection, the manager follows up (workflows.md).
  if (v.status === 'in_review' && v.currentStep === 'additional_documents' && v.documentsOverdue) {
    tasks.push({ role: 'manager', action: 'FollowUpAdditionalDocuments', dueAt: v.documentsDueAt, overdue: true });
  }
  return tasks;
}
