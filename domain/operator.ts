import { z } from 'zod';
import { Id } from './ids';
import { WORKFLOW_CASE_KINDS, type WorkflowCaseKind } from './case-search';
import { PageQuery } from './paging';

/**
 * The operator console: Admins find cases across kinds, list stuck ones, read a
 * case's history with decoded payloads (personal fields redacted unless a reason is given), export
 * it, and retry, terminate or reset a case with a reason. Every such action is audited.
 */
export const OPERATOR_AUDIT_ACTIONS = ['reveal', 'export', 'retry', 'terminate', 'reset'] as const;
export type OperatorAuditAction = (typeof OPERATOR_AUDIT_ACTIONS)[number];

export const OperatorReason = z
  .string({ message: 'Give a reason' })
  .trim()
  .min(5, 'Give a reason of at least 5 characters')
  .max(500, 'The reason must be at most 500 characters');

/** Log numbers as people read them out (domain/lease-up formatLogNumber). */
export const LOG_NUMBER_PATTERN = /^LU-\d{6,12}$/;

/** Exactly one of: a log number, an applicant's email, a household ID. */
export const OperatorSearchQuery = z
  .object({
    logNumber: z.string().trim().toUpperCase().regex(LOG_NUMBER_PATTERN, 'Enter a log number like LU-000123').optional(),
    email: z.string().trim().toLowerCase().email('Enter a valid email').max(254).optional(),
    householdId: z.string().uuid('Enter a valid household ID').optional(),
  })
  .refine((q) => [q.logNumber, q.email, q.householdId].filter(Boolean).length === 1, { message: 'Search by one of log number, email or household' });
export type OperatorSearchQuery = z.infer<typeof OperatorSearchQuery>;

export const STUCK_REASONS = ['overdue', 'idle', 'failing'] as const;
export type StuckReason = (typeof STUCK_REASONS)[number];

export const OperatorStuckQuery = PageQuery.extend({
  reason: z.enum(STUCK_REASONS).default('overdue'),
  /** No change for this many days (reason "idle"). */
  days: z.coerce.number().int().min(1).max(365).default(14),
});

/** A case named by its kind and ID: its workflow ID is `<kind>/<id>` (infra/temporal/ids.ts). */
export const OperatorCaseParams = z.object({ kind: z.enum(WORKFLOW_CASE_KINDS), id: Id });
export const operatorWorkflowId = (p: { kind: WorkflowCaseKind; id: string }) => `${p.kind}/${p.id}`;

export const OperatorRevealBody = z.object({ reason: OperatorReason });
/** An encoded export holds every payload (readable through the codec) and needs a reason like a reveal; a decoded one without a reason is redacted. */
export const OperatorExportBody = z
  .object({ format: z.enum(['encoded', 'decoded']), reason: OperatorReason.optional() })
  .refine((b) => b.format !== 'encoded' || b.reason !== undefined, { message: 'Give a reason to export the history encoded', path: ['reason'] });
/** The reason an Admin gives once for a codec session (the Temporal Web UI's or the CLI's decoding with that sign-in). */
export const OperatorCodecReasonBody = z.object({ reason: OperatorReason });
export const OperatorActionBody = z.object({ reason: OperatorReason });
export const OperatorResetBody = z.object({ reason: OperatorReason, eventId: z.number().int().min(1) });
export const OperatorAuditQuery = PageQuery.extend({ workflowId: z.string().max(200).optional() });

export interface OperatorCaseSummary {
  workflowId: string;
  kind: WorkflowCaseKind | null;
  /** Temporal's execution status: Running, Completed, Terminated... */
  execution: string;
  status: string | null;
  step: string | null;
  logNumber: string | null;
  overdue: boolean;
  changedAt: string | null;
  startedAt: string | null;
  /** Stuck lists: why this case is listed (an activity failing: its type and attempt). */
  failing?: { activityType: string; attempt: number; lastFailure: string | null } | null;
}

export interface OperatorTimelineEvent {
  eventId: number;
  at: string;
  /** The event type without its prefix (ActivityTaskScheduled, WorkflowExecutionUpdateAccepted...). */
  type: string;
  /** The activity, update, signal, timer or marker it names, if any. */
  name: string | null;
  /** Decoded payloads of the event (inputs, results), redacted unless revealed. */
  payloads: unknown[];
  failure: string | null;
}

export interface OperatorHistory {
  workflowId: string;
  redacted: boolean;
  events: OperatorTimelineEvent[];
  /** Events a case can be reset to (each completed workflow task). */
  resetPoints: number[];
}

export interface OperatorAuditEntry {
  id: string;
  at: string;
  actorUserId: string;
  actorUsername: string;
  workflowId: string;
  action: OperatorAuditAction;
  reason: string;
  detail: Record<string, string | number | null>;
}

export const REDACTED = '[redacted]';

/**
 * Personal fields of decoded payloads: names, emails, identifiers (SSN, ITIN, alien number), dates
 * of birth, incomes and amounts, addresses and phones, signatures and IP addresses, and free text
 * people wrote (messages, subjects, notes, reasons).
 */
const PERSONAL_KEY = /(name|email|ssn|itin|alien|birth|income|amount|salary|wage|phone|mobile|address|signature|subject|message|body|note|reason|comment|text|employer)/i;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
/**
 * Fields redacted whole, keys and all: a household's lottery groups (disability among them) and its
 * place in each say who belongs to which group even when only the values are hidden.
 */
const WHOLLY_PERSONAL_KEY = /group/i;

/** A copy of `value` with every personal field (by key), every lottery group, and every email-like string replaced by REDACTED. */
export function redactPersonal(value: unknown, key = ''): unknown {
  if (value === null || value === undefined) return value;
  if (key && WHOLLY_PERSONAL_KEY.test(key)) return REDACTED;
  if (key && PERSONAL_KEY.test(key) && typeof value !== 'object') return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactPersonal(v, key && PERSONAL_KEY.test(key) ? key : ''));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactPersonal(v, PERSONAL_KEY.test(key) ? key : k)]));
  if (typeof value === 'string' && EMAIL.test(value)) return REDACTED;
  return value;
}

/** The retention sweep's Temporal Schedule as the operator console shows it (GET /api/Operator/retention). */
export interface RetentionScheduleRuns {
  /** False when the schedule was never created (no worker has started yet). */
  exists: boolean;
  paused: boolean;
  lastRunAt: string | null;
  nextRunAt: string | null;
}
