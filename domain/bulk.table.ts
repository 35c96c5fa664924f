import { z } from 'zod';
import { actionsOf, type ActionTable, type CaseActor } from './case';
import type { BulkBatchStatus, StartBulkBatchInput } from './bulk';
import type { MessageCode } from './messages';

/**
 * A bulk action as a durable case on the case kit: the batch works through its
 * pending cases a page at a time by itself (the kit's `work`), and the manager's one action on it
 * is Cancel, which stops it before the next case (cases never reached are skipped).
 */
export type BulkBatchRole = 'manager';

export interface BulkBatchState {
  readonly input: StartBulkBatchInput;
  status: BulkBatchStatus;
  /** Every case up to this id is settled (the next page starts after it). */
  after: string | null;
  processed: number;
  /** Cases settled in this run: the run continues as new after CASES_PER_RUN (a short history). */
  processedInRun: number;
  // The case kit's bookkeeping.
  version: number;
  updatedAt: string;
  history: { at: string; action: string; by: string; note?: string }[];
  timers: never[];
}

/** Cases sent at once, and a page of the batch (one change of the case, one projection). */
export const BULK_CONCURRENCY = 12;
export const BULK_PAGE_SIZE = 48;
/** About 6 history events per case: a run of 200 stays near 1,300 events. */
export const BULK_CASES_PER_RUN = 200;

export const BULK_BATCH_INPUTS = {
  Cancel: z.object({ reason: z.string().trim().max(2000).optional() }),
} as const;
export type BulkBatchInputs = { [A in keyof typeof BULK_BATCH_INPUTS]: z.infer<(typeof BULK_BATCH_INPUTS)[A]> };

export function initialBulkBatchState(input: StartBulkBatchInput, now: string): BulkBatchState {
  return {
    input,
    status: input.cancelled ? 'cancelling' : 'running',
    after: input.after ?? null,
    processed: input.processed ?? 0,
    processedInRun: 0,
    version: input.version ?? 0,
    updatedAt: now,
    history: [],
    timers: [],
  };
}

export function bulkBatchFinished(s: Pick<BulkBatchState, 'status'>): MessageCode | null {
  return s.status === 'completed' || s.status === 'cancelled' ? 'bulkBatchFinished' : null;
}

export const BULK_BATCH_TABLE = {
  Cancel: {
    by: 'manager',
    input: BULK_BATCH_INPUTS.Cancel,
    when: (s) => (s.status === 'running' ? null : 'bulkBatchFinished'),
    change: (s) => {
      s.status = 'cancelling';
    },
  },
} satisfies ActionTable<BulkBatchState, BulkBatchInputs, BulkBatchRole, never>;
export const BULK_BATCH_ACTIONS = actionsOf(BULK_BATCH_TABLE);

/** What the read model keeps of the batch (the per-case results are their own rows). */
export interface BulkBatchCaseView {
  batchId: string;
  status: BulkBatchStatus;
  processed: number;
  version: number;
}

export function bulkBatchView(s: BulkBatchState): BulkBatchCaseView {
  return { batchId: s.input.batchId, status: s.status, processed: s.processed, version: s.version };
}

export type BulkBatchActor = CaseActor<BulkBatchRole>;
