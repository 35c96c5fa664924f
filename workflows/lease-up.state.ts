import {
  APPLICANT_ACTIONS,
  FINAL_STATUSES,
  MANAGER_ACTIONS,
  TIMELINE_STEPS,
  type ActionInput,
  type ActorRole,
  type ApplicantAction,
  type ApplicationStatus,
  type HistoryEntry,
  type LeaseUpAction,
  type LeaseUpView,
  type ManagerAction,
  type MessageCode,
  type PendingTask,
  type StartLeaseUpInput,
  type TimelineStep,
} from '../domain';

/**
 * The state of one lease-up application and the rules of shared/design/workflows.md.
 * Pure: no I/O and no clock of its own; the workflow passes its (deterministic) time in.
 */
export class LeaseUpState {
  status: ApplicationStatus = 'in_review';
  step: TimelineStep = 'documentation_review';
  profileSubmitted = false;
  consent: LeaseUpView['consent'] = 'not_requested';
  rejectionReason: string | null = null;
  logNumber: string | null = null;
  version = 1;
  readonly stepStartedAt = new Map<TimelineStep, string>();
  readonly skipped = new Set<TimelineStep>(['additional_documents', 'screening_consent']);
  readonly history: HistoryEntry[] = [];
  updatedAt: string;

  constructor(
    readonly input: StartLeaseUpInput,
    readonly appliedAt: string,
  ) {
    this.updatedAt = appliedAt;
    this.stepStartedAt.set('submitted', appliedAt);
    this.stepStartedAt.set('documentation_review', appliedAt);
    this.history.push({ at: appliedAt, action: 'Apply', by: 'applicant' });
  }

  get isFinal(): boolean {
    return FINAL_STATUSES.includes(this.status);
  }

  /** Why `action` may not be taken now by this actor, or null when it may. */
  refusal(action: LeaseUpAction, input: ActionInput): MessageCode | null {
    const actorRole = roleOf(action);
    if (input.actor.role !== actorRole) return 'forbidden';
    if (this.isFinal) return 'applicationClosed';
    switch (action) {
      case 'SubmitProfile':
        if (this.status !== 'in_review' || this.step !== 'documentation_review') return 'actionNotAllowedNow';
        return this.profileSubmitted ? 'profileAlreadySubmitted' : null;
      case 'MarkAsComplete':
        if (this.status !== 'in_review' || this.step !== 'documentation_review') return 'actionNotAllowedNow';
        return this.profileSubmitted ? null : 'profileNotSubmitted';
      case 'RequestConsentForScreening':
        return this.status === 'in_review' && this.step === 'documentation_review' ? null : 'actionNotAllowedNow';
      case 'ProvideConsentForScreening':
      case 'DenyConsentForScreening':
        return this.status === 'in_review' && this.step === 'screening_consent' ? null : 'actionNotAllowedNow';
      case 'RejectApplication':
        if (this.status !== 'in_review') return 'actionNotAllowedNow';
        return (['decision', 'screening', 'income_certification'] as TimelineStep[]).includes(this.step)
          ? null
          : 'actionNotAllowedNow';
      case 'Withdraw':
        return this.status === 'in_review' || this.status === 'appeal_submitted' ? null : 'actionNotAllowedNow';
    }
  }

  /** Applies an action the validator accepted. */
  apply(action: LeaseUpAction, input: ActionInput, now: string): void {
    switch (action) {
      case 'SubmitProfile':
        this.profileSubmitted = true;
        break;
      case 'MarkAsComplete':
        this.moveTo('decision', now);
        break;
      case 'RequestConsentForScreening':
        this.consent = 'requested';
        this.skipped.delete('screening_consent');
        this.moveTo('screening_consent', now);
        break;
      case 'ProvideConsentForScreening':
        this.consent = 'given';
        this.moveTo('decision', now);
        break;
      case 'DenyConsentForScreening':
        this.consent = 'denied';
        this.moveTo('decision', now);
        break;
      case 'RejectApplication':
        this.status = 'rejected';
        this.rejectionReason = input.reason ?? null;
        break;
      case 'Withdraw':
        this.status = 'withdrawn';
        break;
    }
    this.history.push({ at: now, action, by: input.actor.role, ...(input.reason ? { note: input.reason } : {}) });
    this.touch(now);
  }

  /** Marks a change that is not an action (log number issued, timer fired). */
  touch(now: string): void {
    this.updatedAt = now;
    this.version += 1;
  }

  availableActions(): LeaseUpView['availableActions'] {
    const probe = (role: ActorRole) => ({
      actor: { userId: this.input.applicantUserId, role, impersonatedBy: null },
    });
    return {
      applicant: APPLICANT_ACTIONS.filter((a): a is ApplicantAction => this.refusal(a, probe('applicant')) === null),
      manager: MANAGER_ACTIONS.filter((a): a is ManagerAction => this.refusal(a, probe('manager')) === null),
    };
  }

  view(): LeaseUpView {
    const available = this.availableActions();
    const current = TIMELINE_STEPS.indexOf(this.step);
    const pendingTasks: PendingTask[] = [
      ...available.applicant.filter((a) => a !== 'Withdraw').map((action) => task('applicant', action)),
      ...available.manager.filter((a) => a !== 'RejectApplication').map((action) => task('manager', action)),
    ];
    return {
      applicationId: this.input.applicationId,
      logNumber: this.logNumber,
      householdId: this.input.householdId,
      opportunityId: this.input.opportunityId,
      organizationId: this.input.organizationId,
      applicantUserId: this.input.applicantUserId,
      householdSize: this.input.householdSize,
      householdIncome: this.input.householdIncome,
      status: this.status,
      currentStep: this.step,
      timeline: TIMELINE_STEPS.map((step, index) => ({
        step,
        state:
          index < current
            ? this.skipped.has(step) ? 'skipped' : 'complete'
            : index === current
              ? this.isFinal ? 'complete' : 'current'
              : this.skipped.has(step) ? 'skipped' : 'pending',
        at: this.stepStartedAt.get(step) ?? null,
      })),
      history: [...this.history],
      pendingTasks,
      availableActions: available,
      profileSubmitted: this.profileSubmitted,
      consent: this.consent,
      rejectionReason: this.rejectionReason,
      appliedAt: this.appliedAt,
      updatedAt: this.updatedAt,
      version: this.version,
    };
  }

  private moveTo(step: TimelineStep, now: string): void {
    this.step = step;
    this.stepStartedAt.set(step, now);
  }
}

function task(role: ActorRole, action: LeaseUpAction): PendingTask {
  return { role, action, dueAt: null };
}

export function roleOf(action: LeaseUpAction): ActorRole {
  return (APPLICANT_ACTIONS as readonly string[]).includes(action) ? 'applicant' : 'manager';
}
