import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Opaque refresh tokens (hash only); a family is one sign-in, rotated on every use (spec section 4). */
export interface RefreshTokenTable {
  id: Generated<string>;
  family_id: string;
  user_id: string;
  /** The ambassador or manager behind an impersonated session. */
  real_user_id: string | null;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Generated<Date>;
}

export type OneTimePurpose =
  | 'login_mfa_challenge'
  | 'login_otp'
  | 'login_code'
  | 'register_otp'
  | 'verify_email'
  | 'reset_password'
  | 'forgot_username'
  | 'tenant_match'
  | 'profile_link'
  | 'signature_otp'
  | 'signature_grant'
  | 'access_grant';

/** OTPs and link tokens: hashed, single-use, expiring, with an attempt count. */
export interface OneTimeCodeTable {
  id: Generated<string>;
  user_id: string;
  purpose: OneTimePurpose;
  code_hash: string;
  /** What the code is about when not only the user (e.g. the tenant roster row being matched). */
  subject: string | null;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Generated<Date>;
}

export interface ImpersonationAuditTable {
  id: Generated<string>;
  real_user_id: string;
  acting_user_id: string;
  event: 'start' | 'exit' | 'request';
  method: string | null;
  path: string | null;
  status_code: number | null;
  created_at: Generated<Date>;
}

export interface AmbassadorOrganizationTable {
  ambassador_user_id: string;
  organization_id: string;
  created_at: Generated<Date>;
}

/** The managing agent's resident list; a tenant account is matched to one row (ProfileMatch). */
export interface TenantRosterTable {
  id: Generated<string>;
  organization_id: string;
  building_id: string;
  building_name: string;
  building_address: string;
  unit_number: string;
  first_name: string;
  last_name: string;
  date_of_birth: ColumnType<string, string, string>;
  email: string | null;
  phone: string | null;
  linked_user_id: string | null;
  created_at: Generated<Date>;
}

export interface UserSignatureTable {
  user_id: string;
  kind: 'drawn' | 'typed';
  blob_key: string;
  updated_at: Timestamp;
}

/** Columns the identity migration adds to `users` (typed on UserTable through this interface). */
export interface UserIdentityColumns {
  notify_email: Generated<boolean>;
  notify_sms: Generated<boolean>;
  phone_verified: Generated<boolean>;
  applicant_match_required: Generated<boolean>;
}

export interface IdentityTables {
  refresh_tokens: RefreshTokenTable;
  one_time_codes: OneTimeCodeTable;
  impersonation_audit: ImpersonationAuditTable;
  ambassador_organizations: AmbassadorOrganizationTable;
  tenant_roster: TenantRosterTable;
  user_signatures: UserSignatureTable;
}
