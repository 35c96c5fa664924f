import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string, string>;
/** numeric columns come back as strings from pg; written as numbers. */
type Numeric = ColumnType<string, number | string, number | string>;
type CalendarDate = ColumnType<string, string, string>;

/** Spec section 3 household member. SSN, ITIN and alien number only encrypted (infra/crypto.ts) plus last 4. */
export interface HouseholdMemberTable {
  id: Generated<string>;
  household_id: string;
  full_name: string;
  relationship: string;
  date_of_birth: CalendarDate;
  gender: string;
  ssn_encrypted: string | null;
  ssn_last4: string | null;
  itin_encrypted: string | null;
  itin_last4: string | null;
  alien_number_encrypted: string | null;
  alien_number_last4: string | null;
  races: Json<string[]>;
  ethnicity: string;
  marital_status: string;
  disability: boolean;
  student_status: string;
  student_eligibility: string;
  emancipated_minor: boolean;
  pregnant: boolean;
  pregnancy_child_count: number | null;
  expected_delivery_date: CalendarDate | null;
  head_of_household: boolean;
  email: string | null;
  mobile: string | null;
  preferred_language: string;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface HouseholdIncomeTable {
  id: Generated<string>;
  household_id: string;
  member_id: string;
  income_type: string;
  /** Plain amount of a row written before encryption (null once sealed; infra/db/repositories/household-income-store.ts). */
  amount: Numeric | null;
  /** The amount sealed by infra/crypto.ts (FieldCipher). */
  amount_encrypted: string | null;
  frequency: string;
  /** The entry's fields, sealed as `{"$sealed": ...}` (plain JSON only in rows from before encryption). */
  details: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface HouseholdAssetTable {
  id: Generated<string>;
  household_id: string;
  member_id: string | null;
  kind: string;
  details: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface HouseholdProfileTable {
  household_id: string;
  address: Json<Record<string, unknown>> | null;
  preferences: Json<Record<string, unknown>> | null;
  has_income: boolean | null;
  has_assets: boolean | null;
  asset_flags: Json<Record<string, boolean>>;
  eligibility: Json<Record<string, unknown>> | null;
  special_income: Json<Record<string, unknown>>;
  completed_at: Timestamp | null;
  submitted_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface RentalAssistanceTable {
  id: Generated<string>;
  household_id: string;
  details: Json<Record<string, unknown>>;
  updated_at: Timestamp;
}

export interface HouseholdDocumentTable {
  id: Generated<string>;
  household_id: string;
  member_id: string | null;
  income_id: string | null;
  asset_id: string | null;
  document_type: string;
  file_name: string;
  blob_key: string | null;
  content_type: string;
  size_bytes: number;
  uploaded_by: string;
  uploaded_at: Timestamp;
  review_reason: string | null;
  rejected_by_manager: Generated<boolean>;
  needs_review: Generated<boolean>;
  rejection_reason: string | null;
  discrepancy_reason: string | null;
  replaces_document_id: string | null;
  is_tenant_signed: Generated<boolean>;
  /** Pay stubs only: the pay date printed on the stub (YYYY-MM-DD), for the last-6-consecutive rule. */
  pay_date: string | null;
  /** Accepted by a manager (the case file); null while pending, rejected or flagged. */
  accepted_at: NullableTimestamp;
  reviewed_by: ColumnType<string | null, string | null | undefined, string | null>;
  reviewed_at: NullableTimestamp;
}

/** The facts of an approved recertification (sealed: they hold incomes), to show the next cycle what changed. */
export interface CertificationRecordTable {
  case_id: string;
  household_id: string;
  approved_at: Timestamp;
  facts_sealed: string;
  recorded_at: Generated<Date>;
}

export interface LookupTable {
  category: string;
  code: string;
  sort_order: number;
  active: Generated<boolean>;
}

/** Figures read from a bank statement or pay stub: sealed, proposed until the resident confirms them. */
export interface DocumentExtractionTable {
  id: string;
  household_id: string;
  document_id: string;
  document_type: 'bank_statement' | 'pay_stub';
  status: 'pending' | 'ready' | 'failed';
  /** sealJson of { source, lines, fields }: personal data. */
  result_sealed: string | null;
  failure: string | null;
  requested_at: Generated<Date>;
  finished_at: NullableTimestamp;
  confirmed_at: NullableTimestamp;
}

export interface HouseholdTables {
  household_members: HouseholdMemberTable;
  household_incomes: HouseholdIncomeTable;
  household_assets: HouseholdAssetTable;
  household_profiles: HouseholdProfileTable;
  rental_assistance: RentalAssistanceTable;
  household_documents: HouseholdDocumentTable;
  certification_records: CertificationRecordTable;
  document_extractions: DocumentExtractionTable;
  lookups: LookupTable;
}
