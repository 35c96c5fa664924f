import type { ColumnType, Generated } from 'kysely';
import type { RelocationStatus, RelocationView } from '../../../domain';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** Read model of relocations, written only by the workflow's projection (version-guarded). */
export interface RelocationCaseTable {
  id: string;
  workflow_id: string;
  household_id: string;
  organization_id: string;
  tenant_user_id: string;
  status: RelocationStatus;
  under_relocation: boolean;
  ends_at: Timestamp | null;
  pending_tasks: Json<RelocationView['pendingTasks']>;
  started_at: Timestamp;
  state_updated_at: Timestamp;
  state_version: number;
  /** The last projected view (readable after the workflow's retention); null before 2026-11-22T0725. */
  view: Json<RelocationView> | null;
  projected_at: Generated<Date>;
}

export interface RelocationTables {
  relocation_cases: RelocationCaseTable;
}
