import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/**
 * Transactional outbox of notifications (OTP, verification, reset, recertification notices...).
 * Writers insert in the same transaction as the change that causes the message; the delivery
 * worker sends pending rows and marks them. `dedupe_key` makes "send once" hold under retries.
 */
export interface NotificationOutboxTable {
  id: Generated<string>;
  user_id: string | null;
  channel: 'email' | 'sms';
  /** Email address or phone number, resolved when the row is written. */
  to_address: string;
  /** Template name, e.g. 'otp', 'verify-email', 'recertification-notice'. */
  template: string;
  language: string;
  params: Json<Record<string, unknown>>;
  dedupe_key: string | null;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Generated<Date>;
  sent_at: Timestamp | null;
  /** The SMS provider's id of the message (Twilio's "SM..." sid), set when it accepted it. */
  provider_message_id: string | null;
  /** The provider's latest delivery state (queued, sent, delivered, undelivered, failed...). */
  delivery_status: string | null;
  /** Set when this row will never reach the person: why (domain/sms.ts UndeliveredReason). */
  undelivered_reason: 'failed' | 'undelivered' | 'opted_out' | 'bounced' | null;
  /** The case notice this row carries (its dedupe key): one notice may go by email and text. */
  notice_key: string | null;
  /** The case the notice is about, `<kind>:<id>` (e.g. `lease-up:<application id>`). */
  case_key: string | null;
}

/** Numbers that texted STOP (opted_out) or START again, by their digits (domain/sms.ts phoneKey). */
export interface SmsOptOutTable {
  phone_key: string;
  opted_out: boolean;
  changed_at: Generated<Date>;
}

/**
 * Read model of the manager task inbox across lease-up, recertification and relocation cases.
 * Written only by each workflow's projection activity; one row per open task of a case.
 */
export interface ManagerTaskTable {
  id: Generated<string>;
  organization_id: string;
  case_kind: 'lease_up' | 'recertification' | 'relocation';
  case_id: string;
  household_id: string;
  /** The workflow action the manager is expected to take (e.g. 'MarkAsComplete'). */
  action: string;
  /** The case's current step or stage, for filtering. */
  step: string;
  /** Opportunity or building the case belongs to, for filtering (null when none). */
  context_id: string | null;
  context_name: string | null;
  due_at: Timestamp | null;
  overdue: Generated<boolean>;
  case_version: number;
  created_at: Generated<Date>;
}

export interface ManagerTaskVersionTable {
  case_kind: 'lease_up' | 'recertification' | 'relocation';
  case_id: string;
  version: number;
}

/** The notification redirect log: a click on a link of a message (path only, never the query). */
export interface NotificationClickTable {
  id: Generated<string>;
  notification_id: string;
  destination_path: string;
  clicked_at: Generated<Date>;
}

/** One row: moved by trigger on every write to what the public opportunity pages show. */
export interface PublicListingGenerationTable {
  id: number;
  generation: string;
}

export interface SharedTables {
  public_listing_generation: PublicListingGenerationTable;
  notification_outbox: NotificationOutboxTable;
  sms_opt_outs: SmsOptOutTable;
  notification_clicks: NotificationClickTable;
  manager_tasks: ManagerTaskTable;
  manager_task_versions: ManagerTaskVersionTable;
}
