import {
  APPLICANT_ACTIONS,
  DEFAULT_LEASE_UP_SETTINGS,
  FINAL_STATUSES,
  type ActionInput,
  type ActorRole,
  type ApplicationStatus,
  type HistoryEntry,
  type LeaseUpAction,
  type LeaseUpView,
  type LetterState,
  type MessageCode,
  type StartLeaseUpInput,
  type TimelineStep,
  type UnitOffer,
} from './domain';
import { addBusinessDays, addDays, ruleRefusal } from './lease-up.rules';
import { fireTimer, type ApplicantNotice, type TimerRequest } from './lease-up.timers';
import { availableActionsOf, factsOf, viewOf } from './lease-up.view';

export type { ApplicantNotice, TimerRequest };

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
  rejectedAtStep: TimelineStep | null = null;
  logNumber: string | null = null;
  outstanding: LeaseUpView['outstandingDocuments'] = [];
  documentsNote: string | null = null;
  documentsDueAt: string | null = null;
  documentsOverdue = false;
  documentRounds = 0;
  appointmentSlots: string[] = [];
  appointmentAt: string | null = null;
  bookings = 0;
  offers: UnitOffer[] = [];
  tic: LetterState | null = null;
  leaseLetter: LetterState | null = null;
  appealDeadline: string | null = null;
  appealReason: string | null = null;
  appealDecisionDueAt: string | null = null;
  appealEscalated = false;
  rejections = 0;
  appeals = 0;
  householdSize: number;
  householdIncome: number;
  version = 1;
  readonly settings: LeaseUpView['settings'];
  readonly stepStartedAt = new Map<TimelineStep, string>();
  readonly skipped = new Set<TimelineStep>(['additional_documents', 'screening_consent']);
  readonly history: HistoryEntry[] = [];
  /** Timers and notices produced by the last changes, drained by the workflow. */
  timers: TimerRequest[] = [];
  notices: ApplicantNotice[] = [];
  updatedAt: string;

  constructor(
    readonly input: StartLeaseUpInput,
    readonly appliedAt: string,
  ) {
    this.settings = { ...DEFAULT_LEASE_UP_SETTINGS, ...input.settings };
    this.householdSize = input.householdSize;
    this.householdIncome = input.householdIncome;
    this.updatedAt = appliedAt;
    this.stepStartedAt.set('submitted', appliedAt);
    this.stepStartedAt.set('documentation_review', appliedAt);
    this.history.push({ at: appliedAt, action: 'Apply', by: 'applicant' });
  }

  get isFinal(): boolean {
    return FINAL_STATUSES.includes(this.status);
  }

  /** Why `action` may not be taken now by this actor, or null when it may. */
  refusal(action: LeaseUpAction, input: ActionInput, now: number): MessageCode | null {
    if (input.actor.role !== roleOf(action)) return 'forbidden';
    if (this.isFinal) return 'applicationClosed';
    return ruleRefusal(factsOf(this), action, input, now);
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
      case 'RejectDocuments':
      case 'RequestAdditionalDocuments': {
        const items =
          action === 'RejectDocuments'
            ? input.documents!.map((d) => ({ ...d, kind: 'rejected' as const }))
            : input.documentTypes!.map((item) => ({ item, kind: 'requested' as const }));
        this.outstanding = items;
        this.documentsNote = input.note ?? input.reason ?? null;
        this.documentsDueAt = input.dueAt ?? addDays(now, this.settings.additionalDocumentsDays);
        this.documentsOverdue = false;
        this.documentRounds += 1;
        this.skipped.delete('additional_documents');
        this.moveTo('additional_documents', now);
        this.timers.push({ event: 'AdditionalDocumentsOverdue', at: this.documentsDueAt, token: `docs-${this.documentRounds}` });
        break;
      }
      case 'SubmitAdditionalDocuments':
        this.outstanding = [];
        this.documentsDueAt = null;
        this.documentsOverdue = false;
        this.moveTo('documentation_review', now);
        break;
      case 'ProceedToAppointmentScheduling':
        this.appointmentSlots = input.slots!.filter((s) => Date.parse(s) > Date.parse(now)).sort();
        this.moveTo('appointment_scheduling', now);
        break;
      case 'ScheduleAppointment':
      case 'RescheduleAppointment':
        this.appointmentAt = input.slot!;
        this.bookings += 1;
        if (action === 'ScheduleAppointment') this.moveTo('screening', now);
        for (const [event, hours] of [['AppointmentReminderDay', 24], ['AppointmentReminderHour', 1]] as const) {
          const at = new Date(Date.parse(input.slot!) - hours * 3_600_000).toISOString();
          if (Date.parse(at) > Date.parse(now)) this.timers.push({ event, at, token: `appt-${this.bookings}` });
        }
        break;
      case 'OfferUnit':
        for (const unit of input.units!) {
          const offer: UnitOffer = {
            ...unit,
            offerId: `offer-${this.offers.length + 1}`,
            offeredAt: now,
            expiresAt: input.expiresAt ?? addDays(now, this.settings.offerExpiryDays),
            status: 'open',
            respondedAt: null,
          };
          this.offers.push(offer);
          this.timers.push({ event: 'UnitOfferExpired', at: offer.expiresAt, token: offer.offerId });
        }
        this.moveTo('unit_offer', now);
        break;
      case 'RespondToUnitOffer': {
        const offer = this.offers.find((o) => o.offerId === input.offerId)!;
        offer.status = input.accept ? 'accepted' : 'declined';
        offer.respondedAt = now;
        // Accepting hides every other offer (spec section 4).
        if (input.accept) for (const o of this.offers) if (o.status === 'open') o.status = 'superseded';
        break;
      }
      case 'ProceedWithUnitOffer':
        this.moveTo('income_certification', now);
        break;
      case 'GenerateIncomeCertification':
      case 'ApproveIncomeCertification':
        // The letter itself is added by the workflow once the activity has stored it (setLetter).
        if (action === 'ApproveIncomeCertification') this.moveTo('lease_signing', now);
        break;
      case 'SignTIC':
      case 'SignLeaseLetter':
        // The signed copy is added by the workflow (addSignature).
        break;
      case 'CompleteLeaseSigning':
        this.moveTo('end', now);
        this.status = 'ended';
        break;
      case 'RejectApplication':
      case 'DenyIncomeCertification':
        this.status = 'rejected';
        this.rejectionReason = input.reason ?? null;
        this.rejectedAtStep = this.step;
        this.rejections += 1;
        this.appealDeadline = addDays(now, this.settings.appealWindowDays);
        this.appealReason = null;
        this.timers.push({ event: 'AppealWindowClosed', at: this.appealDeadline, token: `rej-${this.rejections}` });
        break;
      case 'Appeal':
        this.status = 'appeal_submitted';
        this.appealReason = input.reason ?? null;
        this.appeals += 1;
        this.appealDecisionDueAt = addBusinessDays(now, this.settings.appealDecisionBusinessDays);
        this.appealEscalated = false;
        this.timers.push({ event: 'AppealDecisionOverdue', at: this.appealDecisionDueAt, token: `appeal-${this.appeals}` });
        break;
      case 'GrantAppeal':
        // Back to review at the step where it was rejected.
        this.status = 'in_review';
        this.rejectionReason = null;
        this.appealDecisionDueAt = null;
        this.appealEscalated = false;
        break;
      case 'DenyAppeal':
        this.status = 'closed';
        break;
      case 'UpdateInfo':
        if (input.householdSize !== undefined) this.householdSize = input.householdSize;
        if (input.householdIncome !== undefined) this.householdIncome = input.householdIncome;
        break;
      case 'Withdraw':
        this.status = 'withdrawn';
        for (const o of this.offers) if (o.status === 'open') o.status = 'superseded';
        break;
    }
    this.history.push({ at: now, action, by: input.actor.role, ...(input.reason ? { note: input.reason } : {}) });
    this.touch(now);
  }

  /** A durable timer fired; changes state only if what it guarded still stands. */
  fire(timer: TimerRequest, now: string): boolean {
    return fireTimer(this, timer, now);
  }

  setLetter(kind: 'tic' | 'lease', key: string, now: string, signers?: LetterState['signers']): void {
    const letter: LetterState = { key, generatedAt: now, signatures: [], ...(signers ? { signers } : {}) };
    if (kind === 'tic') this.tic = letter;
    else this.leaseLetter = letter;
    this.touch(now);
  }

  addSignature(kind: 'tic' | 'lease', signature: LetterState['signatures'][number], now: string): void {
    (kind === 'tic' ? this.tic : this.leaseLetter)?.signatures.push(signature);
    this.touch(now);
  }

  /** Marks a change that is not an action (log number issued, letter stored). */
  touch(now: string): void {
    this.updatedAt = now;
    this.version += 1;
  }

  drainTimers(): TimerRequest[] {
    const timers = this.timers;
    this.timers = [];
    return timers;
  }

  drainNotices(): ApplicantNotice[] {
    const notices = this.notices;
    this.notices = [];
    return notices;
  }

  availableActions(now: number): LeaseUpView['availableActions'] {
    return availableActionsOf(this, now);
  }

  view(now: number = Date.parse(this.updatedAt)): LeaseUpView {
    return viewOf(this, now);
  }


  addNotice(template: string, timer: TimerRequest, params: Record<string, string>): void {
    this.notices.push({ template, dedupeKey: `lease-up:${this.input.applicationId}:${timer.event}:${timer.token}`, params });
  }

  private moveTo(step: TimelineStep, now: string): void {
    this.step = step;
    this.stepStartedAt.set(step, now);
  }
}

export function roleOf(action: LeaseUpAction): ActorRole {
  return (APPLICANT_ACTIONS as readonly string[]).includes(action) ? 'applicant' : 'manager';
}
