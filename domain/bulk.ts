import { z } from 'zod';
import { APPLICATION_STATUSES, TIMELINE_STEPS } from './lease-up';
import type { MessageCode } from './messages';
import { PageQuery } from './paging';

/**
 * Bulk actions from the manager's inbox: one action, with one input, carried to
 * many lease-up applications of the manager's organisation as a durable batch. Each application is
 * changed by the same Update a single action sends, so the case's own table decides (and refuses
 * with the same messages); the batch only records each case's result.
 */
export const BULK_ACTIONS = ['requestDocument', 'sendReminder', 'reject'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The lease-up action each bulk action sends. */
export const BULK_CASE_ACTION = {
  requestDocument: 'RequestAdditionalDocuments',
  sendReminder: 'SendReminder',
  reject: 'RejectApplication',
} as const satisfies Record<BulkAction, string>;

/** The largest batch (the selection is written once, at creation). */
export const BULK_MAX_CASES = 5000;

const IsoTime = z.string().datetime({ offset: true, message: 'Invalid date and time' });
const Reason = z.string().trim().min(1, 'Please provide a reason.').max(2000);

/** Which applications: the ones ticked in the inbox, or every one matching the inbox's filter. */
export const BulkSelection = z.union([
  z.object({ applicationIds: z.array(z.string().uuid('Invalid id')).min(1, 'Please select at least one application.').max(BULK_MAX_CASES) }),
  z.object({
    filter: z.object({
      opportunityId: z.string().uuid('Invalid id').optional(),
      status: z.enum(APPLICATION_STATUSES).optional(),
      step: z.enum(TIMELINE_STEPS).optional(),
    }),
  }),
]);

/** `POST /api/BulkActions`: the action and its one input, and the selection. */
export const CreateBulkBatchBody = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('requestDocument'),
    documentType: z.string().trim().min(1, 'Please name the document.').max(200),
    note: z.string().trim().max(2000).optional(),
    dueAt: IsoTime.optional(),
    selection: BulkSelection,
  }),
  z.object({ action: z.literal('sendReminder'), note: z.string().trim().max(2000).optional(), selection: BulkSelection }),
  z.object({ action: z.literal('reject'), reason: Reason, selection: BulkSelection }),
]);
export type CreateBulkBatchBody = z.infer<typeof CreateBulkBatchBody>;

export const BULK_BATCH_STATUSES = ['running', 'cancelling', 'completed', 'cancelled'] as const;
export type BulkBatchStatus = (typeof BULK_BATCH_STATUSES)[number];
export const BULK_CASE_STATUSES = ['pending', 'done', 'refused', 'skipped'] as const;
export type BulkCaseStatus = (typeof BULK_CASE_STATUSES)[number];

/** A batch as the manager watches it: what it does, and how many cases are in each state. */
export interface BulkBatchView {
  batchId: string;
  action: BulkAction;
  status: BulkBatchStatus;
  total: number;
  counts: Record<BulkCaseStatus, number>;
  createdAt: string;
  finishedAt: string | null;
}

/** One case's result: done, refused with the case's own refusal, or skipped (batch cancelled first). */
export interface BulkCaseResult {
  applicationId: string;
  logNumber: string | null;
  applicantName: string;
  status: BulkCaseStatus;
  refusal: MessageCode | 'validation' | null;
  finishedAt: string | null;
}

export const BulkResultsQuery = PageQuery.extend({ status: z.enum(BULK_CASE_STATUSES).optional() });
export type BulkResultsQuery = z.infer<typeof BulkResultsQuery>;

/** What the batch workflow is started with: no personal data, only ids and the manager's own words. */
export interface StartBulkBatchInput {
  batchId: string;
  action: BulkAction;
  /** The lease-up action's input (without the actor). */
  input: Record<string, unknown>;
  actor: { userId: string; role: 'manager'; impersonatedBy: string | null };
  /** Where a run continued as new left off: cases after this id are still to do. */
  after?: string;
  processed?: number;
  version?: number;
  cancelled?: boolean;
}
