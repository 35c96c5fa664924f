import type { ColumnType, Generated } from 'kysely';
import type { AccessGrantStatus, AccessGrantVia, AdminUserAction, OrganizationKind, OrganizationRequestStatus } from '../../../domain';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** Columns migration 2026-11-23T0700 adds to `organizations` (typed on OrganizationTable through this interface). */
export interface OrganizationAmbassadorColumns {
  kind: Generated<OrganizationKind>;
  /** Days a household's grant of access to this organisation lasts. */
  access_period_days: Generated<number>;
  updated_at: Generated<Date>;
}

/** Consented access of a household (its head's account) to one organisation's ambassadors. */
export interface AccessGrantTable {
  id: Generated<string>;
  user_id: string;
  organization_id: string;
  requested_by: string | null;
  status: AccessGrantStatus;
  channel: 'email' | 'sms' | null;
  period_days: number;
  requested_at: Timestamp;
  pending_until: Timestamp;
  granted_at: Timestamp | null;
  granted_via: AccessGrantVia | null;
  expires_at: Timestamp | null;
  ended_at: Timestamp | null;
  ended_by: string | null;
  /** Bumped on every transition, so a later workflow can tell stale writes apart. */
  version: Generated<number>;
  created_at: Generated<Date>;
}

export interface UserAdminAuditTable {
  id: Generated<string>;
  actor_user_id: string;
  user_id: string;
  action: AdminUserAction;
  detail: Json<Record<string, string | null>>;
  created_at: Generated<Date>;
}

export interface OrganizationRequestTable {
  id: Generated<string>;
  user_id: string;
  organization_id: string;
  status: Generated<OrganizationRequestStatus>;
  note: Generated<string>;
  decided_by: string | null;
  decided_at: Timestamp | null;
  created_at: Generated<Date>;
}

export interface AmbassadorTables {
  access_grants: AccessGrantTable;
  user_admin_audit: UserAdminAuditTable;
  organization_requests: OrganizationRequestTable;
}
