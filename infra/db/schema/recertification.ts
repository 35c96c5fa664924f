import type { ColumnType, Generated } from 'kysely';
import type { RecertKind, RecertStage, RecertStatus, RecertView } from '../../../domain';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** Read model of recertification cases, written only by the workflow's projection (version-guarded). */
export interface RecertificationCaseTable {
  id: string;
  workflow_id: string;
  household_id: string;
  organization_id: string;
  tenant_user_id: string;
  kind: RecertKind;
  deadline: ColumnType<string, string, string>;
  stage: RecertStage;
  status: RecertStatus;
  profile_locked: boolean;
  tenant_signed: boolean;
  pending_tasks: Json<RecertView['pendingTasks']>;
  started_at: Timestamp;
  state_updated_at: Timestamp;
  state_version: number;
  /** The last projected view (readable after the workflow's retention); null before 2026-11-22T0725. */
  view: Json<RecertView> | null;
  projected_at: Generated<Date>;
}

export interface RecertificationTables {
  recertification_cases: RecertificationCaseTable;
}
