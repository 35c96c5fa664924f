import { z } from 'zod';
import type { ApplicantAction, DocumentItem, LeaseUpAction, ManagerAction, OfferedUnit } from './lease-up.inputs';
import type { NextInLineTask } from './lottery-inbox';

/** Overall status of a lease-up application (shared/design/workflows.md). */
export const APPLICATION_STATUSES = [
  // Lottery applications before the draw, ranked after it until invited, or passed over with a reason.
  'in_lottery',
  'waitlisted',
  'skipped',
  'in_review',
  'rejected',
  'appeal_submitted',
  'withdrawn',
  'closed',
  'ended',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const FINAL_STATUSES: readonly ApplicationStatus[] = ['withdrawn', 'closed', 'ended'];

/** Spec section 4: application timeline steps, in order. */
export const TIMELINE_STEPS = [
  'submitted',
  'documentation_review',
  'additional_documents',
  'screening_consent',
  'decision',
  'appointment_scheduling',
  'screening',
  'unit_offer',
  'income_certification',
  'lease_signing',
  'end',
] as const;
export type TimelineStep = (typeof TIMELINE_STEPS)[number];
export type StepState = 'complete' | 'current' | 'pending' | 'skipped';

/** Who acts on an application: the applicant household or the owning organisation's manager. */
export type ActorRole = 'applicant' | 'manager';

/** The side effects the lease-up workflow runs for an action (workflows/lease-up.ts implements them). */
export type LeaseUpEffect = 'generateTic' | 'generateLeaseLetter' | 'signTic' | 'signLeaseLetter' | 'markDocumentsRejected';

export interface TimelineEntry {
  step: TimelineStep;
  state: StepState;
  /** ISO time the step started or completed, from workflow time. */
  at: string | null;
}

export interface HistoryEntry {
  at: string;
  action: LeaseUpAction | 'Apply' | 'Projected' | TimerEvent;
  by: ActorRole | 'system';
  note?: string;
}

/** What a durable timer records when it fires. */
export type TimerEvent =
  | 'AdditionalDocumentsOverdue'
  | 'UnitOfferExpired'
  | 'AppealWindowClosed'
  | 'AppealDecisionOverdue'
  | 'AppointmentReminderDay'
  | 'AppointmentReminderHour';

export interface PendingTask {
  role: ActorRole;
  /** An action, or a follow-up the manager owes without an action of its own. */
  action: LeaseUpAction | 'FollowUpAdditionalDocuments' | NextInLineTask;
  dueAt: string | null;
  overdue?: boolean;
}

/** Per-opportunity timer settings (days), with the defaults of workflows.md. */
export interface LeaseUpSettings {
  offerExpiryDays: number;
  appealWindowDays: number;
  appealDecisionBusinessDays: number;
  additionalDocumentsDays: number;
}
export const DEFAULT_LEASE_UP_SETTINGS: LeaseUpSettings = {
  offerExpiryDays: 7,
  appealWindowDays: 14,
  appealDecisionBusinessDays: 5,
  additionalDocumentsDays: 14,
};

export interface UnitOffer extends OfferedUnit {
  offerId: string;
  offeredAt: string;
  expiresAt: string;
  /** `superseded`: hidden from the applicant because another offer was accepted. */
  status: 'open' | 'accepted' | 'declined' | 'expired' | 'superseded';
  respondedAt: string | null;
}

export interface LetterState {
  key: string;
  generatedAt: string;
  /** One signature per signer (head of household and each adult member); `userId` is the signer's id. */
  signatures: { userId: string; signerName: string; signedAt: string; ipAddress: string; signedKey: string }[];
  /**
   * Who must sign a TIC: the head of household (user id) and each adult member (member id), read
   * when it is generated. A lease letter has none: the applicant signs it.
   */
  signers?: { id: string; name: string; isHead: boolean }[];
}

/** The single view of an application that the workflow query returns and the read model stores. */
export interface LeaseUpView {
  applicationId: string;
  logNumber: string | null;
  householdId: string;
  opportunityId: string;
  organizationId: string;
  applicantUserId: string;
  householdSize: number;
  householdIncome: number;
  status: ApplicationStatus;
  currentStep: TimelineStep;
  timeline: TimelineEntry[];
  history: HistoryEntry[];
  pendingTasks: PendingTask[];
  /** What each role may do now; the web app renders buttons from this only. */
  availableActions: { applicant: ApplicantAction[]; manager: ManagerAction[] };
  profileSubmitted: boolean;
  consent: 'not_requested' | 'requested' | 'given' | 'denied';
  rejectionReason: string | null;
  /** Step at which the application was rejected (an appeal granted returns there). */
  rejectedAtStep: TimelineStep | null;
  /** Documents rejected or requested and not yet answered, with the due date. */
  outstandingDocuments: (DocumentItem & { kind: 'rejected' | 'requested' })[];
  documentsNote: string | null;
  documentsDueAt: string | null;
  documentsOverdue: boolean;
  appointmentSlots: string[];
  appointmentAt: string | null;
  offers: UnitOffer[];
  heldUnitId: string | null;
  tic: LetterState | null;
  leaseLetter: LetterState | null;
  appealDeadline: string | null;
  appealReason: string | null;
  appealDecisionDueAt: string | null;
  appealEscalated: boolean;
  settings: LeaseUpSettings;
  appliedAt: string;
  updatedAt: string;
  /** Grows by one with every state change; projections never write an older version. */
  version: number;
}

export const ApplyBody = z.object({
  opportunityId: z.string().uuid(),
  householdSize: z.number().int().min(1).max(20),
  householdIncome: z.number().min(0).max(10_000_000),
  agreeToTerms: z.literal(true, { message: 'You must agree to the terms' }),
});
export type ApplyBody = z.infer<typeof ApplyBody>;

/** An application's log number as people see it, from its issued sequence number. */
export function formatLogNumber(sequence: string | number): string {
  return `LU-${String(sequence).padStart(6, '0')}`;
}

export interface StartLeaseUpInput {
  applicationId: string;
  householdId: string;
  opportunityId: string;
  organizationId: string;
  applicantUserId: string;
  householdSize: number;
  householdIncome: number;
  /** The opportunity's timer settings; absent: the defaults of workflows.md. */
  settings?: LeaseUpSettings;
  /** Issued with the application's row; absent: the workflow issues it when it starts. */
  logNumber?: string;
  /**
   * When the API took a first-come application, with its log number: the case starts from this time,
   * and the API has projected its first view (version 1) before starting it, so the run's first
   * workflow task neither issues a log number nor projects (absent when a lottery invites the household).
   */
  startedAt?: string;
  /** Invited from a lottery: its rank and why; the case tells the lottery when it gives its place back or signs its lease. */
  lottery?: { rank: number; because: string };
}

/** A row of `getApplications` (spec section 2 and 3: log number, opportunity name, date applied, status). */
export interface ApplicationRow {
  applicationId: string;
  logNumber: string | null;
  opportunityId: string;
  opportunityName: string;
  applicantFullName: string;
  totalHouseholdSize: number;
  totalHouseholdIncome: number;
  dateApplied: string;
  status: ApplicationStatus;
  currentStep: TimelineStep;
  pendingTasks: PendingTask[];
  /** Lottery applications: the rank drawn (null before the draw, and for first-come opportunities). */
  lotteryRank: number | null;
}

/** `getDetailsById`: the workflow's view plus names the workflow does not hold. */
export interface ApplicationDetail extends LeaseUpView {
  opportunityName: string;
  applicantFullName: string;
  /** Role of the caller on this application, so the app shows that role's actions. */
  viewerRole: ActorRole;
  /** Managers only: where the household's income sits in the opportunity's range (shown, never acted on). */
  incomeFit?: 'within' | 'below' | 'above' | 'no_range';
  /** Lottery applications: the rank drawn and the position in each preference group (null before the draw). */
  lottery?: { rank: number | null; groupPositions: Record<string, number> | null; skipReason: string | null };
}
