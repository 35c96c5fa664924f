import type { CaseTimer } from './case';
import {
  DEFAULT_LEASE_UP_SETTINGS,
  FINAL_STATUSES,
  type ApplicationStatus,
  type HistoryEntry,
  type LeaseUpView,
  type LetterState,
  type StartLeaseUpInput,
  type TimelineStep,
  type UnitOffer,
} from './lease-up';

/** A TIC names every signer (head of household and each adult member) from the moment it is generated. */
export type SignedLetter = LetterState & { signers: NonNullable<LetterState['signers']> };

/**
 * The state of one lease-up application: plain data (it survives continue-as-new and is what the
 * view and the read model are made from). The action table (domain/lease-up.table.ts) reads and
 * changes it (with the predicates and changes of domain/lease-up.rules.ts); nothing else does.
 */
export interface LeaseUpState {
  readonly input: StartLeaseUpInput;
  readonly settings: LeaseUpView['settings'];
  readonly appliedAt: string;
  status: ApplicationStatus;
  step: TimelineStep;
  stepStartedAt: Partial<Record<TimelineStep, string>>;
  /** Optional steps never needed (shown as skipped while they stay so). */
  skipped: TimelineStep[];
  logNumber: string | null;
  profileSubmitted: boolean;
  consent: LeaseUpView['consent'];
  rejectionReason: string | null;
  rejectedAtStep: TimelineStep | null;
  outstanding: LeaseUpView['outstandingDocuments'];
  documentsNote: string | null;
  documentsDueAt: string | null;
  documentsOverdue: boolean;
  documentRounds: number;
  appointmentSlots: string[];
  appointmentAt: string | null;
  bookings: number;
  offers: UnitOffer[];
  tic: SignedLetter | null;
  leaseLetter: LetterState | null;
  appealDeadline: string | null;
  appealReason: string | null;
  appealDecisionDueAt: string | null;
  appealEscalated: boolean;
  rejections: number;
  appeals: number;
  householdSize: number;
  householdIncome: number;
  /** Reminders the manager sent (each notice's dedupe key counts them); absent until the first. */
  reminders?: number;
  // The case kit's bookkeeping (workflows/case): version, last change, history, armed timers.
  version: number;
  updatedAt: string;
  history: HistoryEntry[];
  timers: CaseTimer[];
}

export function initialLeaseUpState(input: StartLeaseUpInput, now: string): LeaseUpState {
  return {
    input,
    settings: { ...DEFAULT_LEASE_UP_SETTINGS, ...input.settings },
    appliedAt: now,
    status: 'in_review',
    step: 'documentation_review',
    stepStartedAt: { submitted: now, documentation_review: now },
    skipped: ['additional_documents', 'screening_consent'],
    logNumber: input.logNumber ?? null,
    profileSubmitted: false,
    consent: 'not_requested',
    rejectionReason: null,
    rejectedAtStep: null,
    outstanding: [],
    documentsNote: null,
    documentsDueAt: null,
    documentsOverdue: false,
    documentRounds: 0,
    appointmentSlots: [],
    appointmentAt: null,
    bookings: 0,
    offers: [],
    tic: null,
    leaseLetter: null,
    appealDeadline: null,
    appealReason: null,
    appealDecisionDueAt: null,
    appealEscalated: false,
    rejections: 0,
    appeals: 0,
    householdSize: input.householdSize,
    householdIncome: input.householdIncome,
    version: 1,
    updatedAt: now,
    history: [{ at: now, action: 'Apply', by: 'applicant' }],
    timers: [],
  };
}

export const isFinalLeaseUp = (s: Pick<LeaseUpState, 'status'>): boolean => FINAL_STATUSES.includes(s.status);

/** Moves the application to `step` (the timeline records when each step started). */
export function moveTo(s: LeaseUpState, step: TimelineStep, now: string): void {
  s.step = step;
  s.stepStartedAt[step] = now;
}

/** Marks an optional step as needed after all. */
export function unskip(s: LeaseUpState, step: TimelineStep): void {
  s.skipped = s.skipped.filter((x) => x !== step);
}
