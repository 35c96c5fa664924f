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

export interface OperatorTables {
  operator_audit: OperatorAuditTable;
}
