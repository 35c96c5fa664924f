import type { ColumnType, Generated } from 'kysely';
import type { OperatorAuditAction } from '../../../domain';

/** JSON written as a string; the database fills `{}` when none is given. */
type Json<T> = ColumnType<T, string | undefined, string>;

/** What an operator did to a case and why (only ever inserted). */
export interface OperatorAuditTable {
  id: Generated<string>;
  actor_user_id: string;
  workflow_id: string;
  action: OperatorAuditAction;
  reason: string;
  detail: Json<Record<string, string | number | null>>;
  created_at: Generated<Date>;
}

/** A household's data exported by one of its members, or an application's personal data purged (only ever inserted). */
export interface PrivacyAuditTable {
  id: Generated<string>;
  action: 'export' | 'purge';
  household_id: string;
  application_id: string | null;
  /** Who downloaded (null for the retention sweep). */
  actor_user_id: string | null;
  detail: Json<Record<string, string | number | null>>;
  created_at: Generated<Date>;
}

/** The one "Download my data" a household has running (any replica); an expired row is free to take. */
export interface MyDataExportLeaseTable {
  household_id: string;
  lease_id: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

/** A file the retention sweep removed the rows of, still to be deleted from the blob store. */
export interface BlobDeletionTable {
  blob_key: string;
  queued_at: Generated<Date>;
}

export interface OperatorTables {
  operator_audit: OperatorAuditTable;
  privacy_audit: PrivacyAuditTable;
  my_data_export_leases: MyDataExportLeaseTable;
  blob_deletions: BlobDeletionTable;
}
