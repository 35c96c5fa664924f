import { z } from 'zod';
import type { ApplicantAction, ManagerAction } from './lease-up.table';
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

/** Who is acting: filled in by the API from the signed-in session, never by the client. */
export const Actor = z.object({
  userId: z.string().uuid(),
  role: z.enum(['applicant', 'manager']),
  /** Set when an ambassador or manager acts for this user (spec section 6, impersonation). */
  impersonatedBy: z.string().uuid().nullable(),
});
export type Actor = z.infer<typeof Actor>;

const IsoTime = z.string().datetime({ offset: true, message: 'Invalid date and time' });
const Reason = z.string().trim().min(1, 'Please provide a reason.').max(2000);

/** A document item the manager rejects or asks for, and the applicant's answer to it. */
export const DocumentItem = z.object({
  item: z.string().trim().min(1, 'Please name the document.').max(200),
  documentId: z.string().uuid().optional(),
  reason: z.string().trim().min(1).max(2000).optional(),
});
export type DocumentItem = z.infer<typeof DocumentItem>;

/** A unit as offered (spec section 3, unit offer: unit number, bedroom type, address). */
export const OfferedUnit = z.object({
  unitId: z.string().uuid(),
  unitNumber: z.string().max(40),
  bedroomType: z.string().max(60),
  address: z.string().max(300),
});
export type OfferedUnit = z.infer<typeof OfferedUnit>;

/** A stored signature as the API hands it to the workflow (the image itself stays in blob storage). */
export const StoredSignature = z.object({
  signatureKey: z.string().max(300),
  ipAddress: z.string().max(64),
  signerName: z.string().max(200),
  /** Who signs: the head (their user id, the default) or an adult member (member id). */
  signerId: z.string().max(100).optional(),
});
export type StoredSignature = z.infer<typeof StoredSignature>;

/** Every action may carry a reason (kept in the history); some require one (the action table says which). */
const Base = z.object({ reason: Reason.optional() });
const Documents = Base.extend({ documents: z.array(DocumentItem).max(50) });
const Slot = Base.extend({ slot: IsoTime });
const Signed = Base.extend({ signature: StoredSignature.optional() });

/**
 * The input of each lease-up action (spec section 4), named as in the spec: each action is the
 * workflow Update of its name and reads only its own fields. Shapes only: what the case's state
 * allows is the action table's business (domain/lease-up.table.ts).
 */
export const LEASE_UP_INPUTS = {
  // The applicant household
  SubmitProfile: Base,
  SubmitAdditionalDocuments: Documents,
  ProvideConsentForScreening: Base,
  DenyConsentForScreening: Base,
  ScheduleAppointment: Slot,
  RescheduleAppointment: Slot,
  RespondToUnitOffer: Base.extend({ offerId: z.string().max(40), accept: z.boolean() }),
  SignTIC: Signed,
  SignLeaseLetter: Signed,
  Appeal: Base.extend({ documents: z.array(DocumentItem).max(20).optional() }),
  UpdateInfo: Base.extend({ householdSize: z.number().int().min(1).max(20), householdIncome: z.number().min(0).max(10_000_000) }),
  Withdraw: Base,
  // The organisation's manager
  MarkAsComplete: Base,
  RequestConsentForScreening: Base,
  RejectApplication: Base,
  RejectDocuments: Documents,
  /** The document types asked for, a note and the due date. */
  RequestAdditionalDocuments: Base.extend({ documentTypes: z.array(z.string().trim().min(1).max(200)).max(50), note: z.string().trim().max(2000).optional(), dueAt: IsoTime.optional() }),
  ProceedToAppointmentScheduling: Base.extend({ slots: z.array(IsoTime).max(50) }),
  /** The units with their details (the API reads them from the opportunity) and an optional expiry. */
  OfferUnit: Base.extend({ units: z.array(OfferedUnit).max(20), expiresAt: IsoTime.optional() }),
  ProceedWithUnitOffer: Base,
  GenerateIncomeCertification: Base,
  ApproveIncomeCertification: Base,
  DenyIncomeCertification: Base,
  CompleteLeaseSigning: Base,
  GrantAppeal: Base,
  DenyAppeal: Base,
  /** A reminder to the household, with the manager's optional note (issue 12: also sent in bulk). */
  SendReminder: Base.extend({ note: z.string().trim().max(2000).optional() }),
} as const;

export type LeaseUpInputs = { [A in keyof typeof LEASE_UP_INPUTS]: z.infer<(typeof LEASE_UP_INPUTS)[A]> };
export type LeaseUpAction = keyof LeaseUpInputs;
/** What an Update of `A` carries: its own input and the actor. */
export type LeaseUpActionInput<A extends LeaseUpAction = LeaseUpAction> = LeaseUpInputs[A] & { actor: Actor };

/**
 * What the web app sends for an action: the action's input without what only the API fills in
 * (unit details are named by id, the signature is stored first).
 */
export const OfferUnitBody = Base.extend({ unitIds: z.array(z.string().uuid()).max(20), expiresAt: IsoTime.optional() });
export type OfferUnitBody = z.infer<typeof OfferUnitBody>;

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
   * when it is generated. Absent on letters of runs before this was recorded: one signature sufficed.
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
  /** Absent in applications started before per-opportunity settings existed: defaults apply. */
  settings?: LeaseUpSettings;
  /** Issued when the application was made; absent: the workflow issues it when it starts. */
  logNumber?: string;
  /**
   * When the API took a first-come application, with its log number: the case starts from this time,
   * and the API has projected its first view (version 1) before starting it, so the run's first
   * workflow task neither issues a log number nor projects (absent in earlier and lottery-invited runs).
   */
  startedAt?: string;
  /** Invited from a lottery (issue 10): its rank and why; the case tells the lottery when it gives its place back. */
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
