import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Paper and mail applicants (migration 2026-11-29T0300): match keys, duplicate pairs, the print queue. */
export interface ApplicationMatchKeyTable {
  application_id: string;
  opportunity_id: string;
  /** HMAC-SHA-256 (hex) under a key derived from the data key: never the name, date or digits. */
  match_key: string;
  created_at: Generated<Date>;
}

export interface LotteryDuplicatePairTable {
  id: Generated<string>;
  opportunity_id: string;
  first_application_id: string;
  second_application_id: string;
  kept_application_id: string | null;
  reason: string | null;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface MailedLetterTable {
  id: Generated<string>;
  organization_id: string;
  household_id: string;
  application_id: string | null;
  letter: string;
  language: string;
  blob_key: string;
  dedupe_key: string;
  queued_at: Timestamp;
  printed_at: NullableTimestamp;
  printed_by: string | null;
  mailed_at: NullableTimestamp;
  mailed_by: string | null;
  /** When a PDF that printed a claim code was deleted, once the letter was mailed (migration 2026-12-02T0347). */
  purged_at: NullableTimestamp;
}

export interface PaperTables {
  application_match_keys: ApplicationMatchKeyTable;
  lottery_duplicate_pairs: LotteryDuplicatePairTable;
  mailed_letters: MailedLetterTable;
}

/** Columns the migration adds to `households`: a household entered from paper has no login until claimed. */
export interface HouseholdPaperColumns {
  login: ColumnType<'account' | 'none', 'account' | 'none' | undefined, 'account' | 'none'>;
  language: string | null;
  mailing_address_sealed: string | null;
  claim_code_hash: string | null;
  claimed_at: NullableTimestamp;
  /** After this the claim code is refused (migration 2026-12-02T0347); the office can issue a new one. */
  claim_code_expires_at: NullableTimestamp;
  /** The placeholder head a claim replaced: notices of running cases addressed to it reach the new head. */
  claimed_from_user_id: string | null;
}

/** Columns the migration adds to `applications`: how it came in (the draw never reads them). */
export interface ApplicationPaperColumns {
  channel: ColumnType<'online' | 'paper', 'online' | 'paper' | undefined, 'online' | 'paper'>;
  postmark_date: ColumnType<string | null, string | null | undefined, string | null>;
  paper_form_document_id: string | null;
  entered_by: string | null;
}
