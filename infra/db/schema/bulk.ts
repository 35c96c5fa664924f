import type { ColumnType, Generated } from 'kysely';
import type { BulkAction, BulkBatchStatus, BulkCaseStatus } from '../../../domain';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** A bulk action of a manager: what it does to its cases, and whether it still runs. */
export interface BulkBatchTable {
  id: string;
  organization_id: string;
  created_by: string;
  action: BulkAction;
  /** The lease-up action's input (document type, note, due date, reason): the manager's words, no personal data. */
  input: Json<Record<string, unknown>>;
  status: BulkBatchStatus;
  total: number;
  state_version: Generated<number>;
  created_at: Generated<Date>;
  finished_at: Timestamp | null;
}

/** One case of a batch and its result, written once by the batch's workflow. */
export interface BulkBatchCaseTable {
  batch_id: string;
  case_id: string;
  status: BulkCaseStatus;
  refusal: string | null;
  finished_at: Timestamp | null;
}

export interface BulkTables {
  bulk_batches: BulkBatchTable;
  bulk_batch_cases: BulkBatchCaseTable;
}
