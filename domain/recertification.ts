import { z } from 'zod';

/**
 * Recertification (spec sections 3, 4 and shared/design/workflows.md "Recertification").
 * One workflow per tenant household per cycle; these are its stages, actions and view.
 */
export const RECERT_STAGES = [
  'action_needed',
  'profile_complete',
  'under_manager_review',
  'documents_submitted_pending_signature',
  'documents_signed_awaiting_approval',
  'returned_for_changes',
  'pending_manager_review',
  'completed',
] as const;
export type RecertStage = (typeof RECERT_STAGES)[number];

export const RECERT_KINDS = ['annual', 'interim'] as const;
export type RecertKind = (typeof RECERT_KINDS)[number];

/** active until completed; expired once the deadline passed before completion (still completable by M). */
export type RecertStatus = 'active' | 'expired' | 'completed';

/** Days before the deadline on which a notice goes out (HUD cadence), each once. */
export const RECERT_NOTICE_DAYS = [120, 90, 60, 30] as const;
/** Annual cycles open this many days before the lease anniversary (the deadline). */
export const ANNUAL_RECERT_LEAD_DAYS = 120;
/** An interim recertification is due this many days after the change is reported. */
export const INTERIM_RECERT_DAYS = 60;

export const RecertActor = z.object({
  userId: z.string().uuid(),
  role: z.enum(['tenant', 'manager']),
  impersonatedBy: z.string().uuid().nullable(),
});
export type RecertActor = z.infer<typeof RecertActor>;

/** What the web app may send with an action (the actor is added by the API from the session). */
export const RecertActionBody = z.object({
  /** ReturnForChanges: one reason per item to change. Resubmit: answers to them. */
  reasons: z.array(z.string().trim().min(1, 'Please provide a reason.').max(1000)).min(1).max(20).optional(),
  /** SignTIC: the adult household member signing (head or adult member). */
  signerId: z.string().uuid().optional(),
  /** SignTIC: drawn signature (PNG, base64) when no saved signature exists. */
  signatureBase64: z.string().max(700_000).optional(),
});
export type RecertActionBody = z.infer<typeof RecertActionBody>;

const Reasons = z.object({ reasons: z.array(z.string().min(1).max(1000)).max(20).optional() });
const Nothing = z.object({});

/** What the tenant household may do (shapes only; the table decides the rest). */
const TENANT_INPUTS = {
  ConfirmProfile: Nothing,
  SubmitProfile: Nothing,
  SubmitDocuments: Nothing,
  /** The signer (the head by default, or an adult member) and the stored signature image's blob key. */
  SignTIC: z.object({ signerId: z.string().uuid().optional(), signatureKey: z.string().max(300).optional(), ipAddress: z.string().max(64).optional() }),
  Resubmit: Reasons,
} as const;

/** What the organisation's manager may do. */
const MANAGER_INPUTS = {
  GenerateTIC: Nothing,
  Approve: Nothing,
  ReturnForChanges: Reasons,
} as const;

/**
 * The input of each recertification action, as its Update carries it. Declared by role, so the
 * table's rows cannot give an action to the other role, and the view names each role's actions
 * without importing the table.
 */
export const RECERT_INPUTS = { ...TENANT_INPUTS, ...MANAGER_INPUTS };
export type RecertTenantAction = keyof typeof TENANT_INPUTS;
export type RecertManagerAction = keyof typeof MANAGER_INPUTS;
export type RecertInputs = { [A in keyof typeof RECERT_INPUTS]: z.infer<(typeof RECERT_INPUTS)[A]> };
export type RecertAction = keyof RecertInputs;
export type RecertActionInput<A extends RecertAction = RecertAction> = RecertInputs[A] & { actor: RecertActor; reason?: string };

export interface RecertSigner {
  id: string;
  name: string;
  isHead: boolean;
}

export interface StartRecertificationInput {
  caseId: string;
  householdId: string;
  organizationId: string;
  tenantUserId: string;
  kind: RecertKind;
  /** Calendar date the recertification is due ('YYYY-MM-DD'): the lease anniversary for annual cycles. */
  deadline: string;
  /** Head of household and each adult member: every one signs the TIC. */
  signers: RecertSigner[];
  /** Why an interim cycle was started (income or household change). */
  reason?: string;
}

export interface RecertNotice {
  daysBefore: number;
  sentAt: string;
}

export interface RecertHistoryEntry {
  at: string;
  action: RecertAction | 'Start' | 'Expired' | 'Notice';
  by: 'tenant' | 'manager' | 'system';
  note?: string;
}

export interface RecertView {
  caseId: string;
  householdId: string;
  organizationId: string;
  tenantUserId: string;
  kind: RecertKind;
  deadline: string;
  startedAt: string;
  stage: RecertStage;
  status: RecertStatus;
  profileLocked: boolean;
  ticGenerated: boolean;
  ticKey: string | null;
  /** The TIC as signed so far (the record) and its SHA-256; null until someone signs. */
  signedTic?: { key: string; sha256: string } | null;
  signers: (RecertSigner & { signedAt: string | null })[];
  returnReasons: string[];
  notices: RecertNotice[];
  history: RecertHistoryEntry[];
  pendingTasks: { role: 'tenant' | 'manager'; action: RecertAction; dueAt: string | null; overdue?: boolean }[];
  availableActions: { tenant: RecertTenantAction[]; manager: RecertManagerAction[] };
  approvedAt: string | null;
  updatedAt: string;
  version: number;
}

/** Spec section 3 "Recertification case", as served by `/api/TenantRecertificationStatus/status`. */
export interface RecertificationCase {
  caseId: string;
  kind: RecertKind;
  address: string;
  bedrooms: string;
  householdSize: number;
  unitNumber: string;
  /** The cycle's period: from its start to the deadline. */
  period: { from: string; to: string };
  status: RecertStatus;
  stage: RecertStage;
  daysRemaining: number;
  lastUpdated: string;
  /** What happens next, as a stage-specific key the web app translates. */
  nextStep: string;
  incomeBand: IncomeBand | null;
  view: RecertView;
}

/** Income bands by percent of AMI (shared/design/workflows.md "Income bands"). */
export const INCOME_BANDS = [
  { band: 'extremely_low', maxPercent: 30 },
  { band: 'very_low', maxPercent: 50 },
  { band: 'low', maxPercent: 80 },
  { band: 'moderate', maxPercent: 120 },
  { band: 'middle', maxPercent: 165 },
] as const;
export type IncomeBandName = (typeof INCOME_BANDS)[number]['band'] | 'above_middle';

export interface IncomeBand {
  band: IncomeBandName;
  /** Household income as a whole percent of the 100% AMI for its size. */
  amiPercent: number;
  ami100: number;
}

/** The band of an income given the 100% AMI for the household size (percent rounded up: 30.2% is above 30). */
export function incomeBandOf(annualIncome: number, ami100: number): IncomeBand {
  const amiPercent = Math.ceil((annualIncome / ami100) * 100);
  const found = INCOME_BANDS.find((b) => amiPercent <= b.maxPercent);
  return { band: found?.band ?? 'above_middle', amiPercent, ami100 };
}

export const StartInterimBody = z.object({
  reason: z.enum(['income_change', 'household_change']),
});
export type StartInterimBody = z.infer<typeof StartInterimBody>;

/**
 * A tenant household of the manager's organisation, as the manager's recertification screen lists
 * it: who may be acted for (the head of household), the latest cycle, and when the annual cycle
 * can open (ANNUAL_RECERT_LEAD_DAYS before the lease anniversary).
 */
export interface ManagerTenantHousehold {
  householdId: string;
  headUserId: string;
  name: string;
  building: string;
  unitNumber: string;
  annualDeadline: string;
  annualOpensOn: string;
  latestCase: { caseId: string; kind: RecertKind; status: RecertStatus; deadline: string } | null;
}
