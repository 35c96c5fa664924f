import type { ColumnType, Generated } from 'kysely';
import type { AlertChannel, AlertFrequency, AlertLanguage, AlertStatus } from '../../../domain/listing-alerts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** One saved listing alert (migration 2026-12-03T0100 says what each column holds). */
export interface ListingAlertTable {
  id: Generated<string>;
  user_id: string | null;
  contact_sealed: string | null;
  contact_hash: string | null;
  channel: AlertChannel;
  language: AlertLanguage;
  frequency: AlertFrequency;
  status: AlertStatus;
  tenure: 'rental' | 'ownership' | null;
  bedroom_types: ColumnType<string[], string[] | undefined, string[]>;
  areas: ColumnType<string[], string[] | undefined, string[]>;
  accessibility: ColumnType<string[], string[] | undefined, string[]>;
  set_aside_groups: ColumnType<string[], string[] | undefined, string[]>;
  personal_sealed: string;
  confirmation_token_hash: string | null;
  unsubscribe_token_hash: string;
  unsubscribe_token_sealed: string;
  created_at: Generated<Date>;
  confirmed_at: Timestamp | null;
  updated_at: Generated<Date>;
}

/** A listing already notified to an alert (or gathered for its weekly digest). */
export interface ListingAlertNoticeTable {
  opportunity_id: string;
  alert_id: string;
  created_at: Generated<Date>;
  digest_week: ColumnType<string | null, string | null | undefined, string | null>;
  digested_at: Timestamp | null;
}

export interface ListingAlertConfirmationSendTable {
  id: Generated<string>;
  contact_hash: string;
  sent_at: Generated<Date>;
}

/** Columns the listing-alerts migration adds to `opportunities`. */
export interface OpportunityAlertColumns {
  area: string | null;
}

export interface ListingAlertTables {
  listing_alerts: ListingAlertTable;
  listing_alert_notices: ListingAlertNoticeTable;
  listing_alert_confirmation_sends: ListingAlertConfirmationSendTable;
}
