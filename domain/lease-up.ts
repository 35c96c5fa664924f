import { z } from 'zod';
import type { MessageCode } from './messages';

/** Overall status of a lease-up application (shared/design/workflows.md). */
export const APPLICATION_STATUSES = [
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

/**
 * Every action of spec section 4 that the workflow accepts as an Update, named as in the spec.
 * The list grows with the lease-up issue; the names are the workflow message names.
 */
export const APPLICANT_ACTIONS = [
  'SubmitProfile',
  'ProvideConsentForScreening',
  'DenyConsentForScreening',
  'Withdraw',
] as const;
export const MANAGER_ACTIONS = [
  'MarkAsComplete',
  'RequestConsentForScreening',
  'RejectApplication',
] as const;
export type ApplicantAction = (typeof APPLICANT_ACTIONS)[number];
export type ManagerAction = (typeof MANAGER_ACTIONS)[number];
export type LeaseUpAction = ApplicantAction | ManagerAction;
export const LeaseUpActionName = z.enum([...APPLICANT_ACTIONS, ...MANAGER_ACTIONS]);
export const ManagerActionName = z.enum(MANAGER_ACTIONS);

/** Actions a person must confirm because they cannot be undone (spec section 4). */
export const IRREVERSIBLE_ACTIONS: readonly LeaseUpAction[] = ['Withdraw', 'RejectApplication'];

/** Who is acting: filled in by the API from the signed-in session, never by the client. */
export const Actor = z.object({
  userId: z.string().uuid(),
  role: z.enum(['applicant', 'manager']),
  /** Set when an ambassador or manager acts for this user (spec section 6, impersonation). */
  impersonatedBy: z.string().uuid().nullable(),
});
export type Actor = z.infer<typeof Actor>;

/** Body of an action sent by the web app; `reason` is needed by rejections. */
export const ActionBody = z.object({
  reason: z.string().trim().min(1, 'Please provide a reason.').max(2000).optional(),
});
export type ActionBody = z.infer<typeof ActionBody>;

export const ActionInput = ActionBody.extend({ actor: Actor });
export type ActionInput = z.infer<typeof ActionInput>;

/** Reasons each action needs; validated once here so the API and the web form agree. */
export const ACTIONS_NEEDING_REASON: readonly LeaseUpAction[] = ['RejectApplication'];

export interface TimelineEntry {
  step: TimelineStep;
  state: StepState;
  /** ISO time the step started or completed, from workflow time. */
  at: string | null;
}

export interface HistoryEntry {
  at: string;
  action: LeaseUpAction | 'Apply' | 'Projected';
  by: ActorRole | 'system';
  note?: string;
}

export interface PendingTask {
  role: ActorRole;
  action: LeaseUpAction;
  dueAt: string | null;
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

export interface StartLeaseUpInput {
  applicationId: string;
  householdId: string;
  opportunityId: string;
  organizationId: string;
  applicantUserId: string;
  householdSize: number;
  householdIncome: number;
}

/** A refusal from a validator: the code names the spec message. */
export interface Refusal {
  code: MessageCode;
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
}

/** `getDetailsById`: the workflow's view plus names the workflow does not hold. */
export interface ApplicationDetail extends LeaseUpView {
  opportunityName: string;
  applicantFullName: string;
  /** Role of the caller on this application, so the app shows that role's actions. */
  viewerRole: ActorRole;
}
