import type { ColumnType, Generated } from 'kysely';
import type { CheckInChannel } from '../../../domain/waitlist-check-ins';
import type { WaitlistState } from '../../../domain/waitlist';

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One household's check-in of one cycle (migration 2026-12-03T0300). */
export interface WaitlistCheckInTable {
  id: Generated<string>;
  application_id: string;
  opportunity_id: string;
  cycle: number;
  asked_at: ColumnType<Date, Date | string, Date | string>;
  reminded_at: NullableTime;
  answered_at: NullableTime;
  answered_by: CheckInChannel | null;
}

/** A signed-out link of a waitlist notice: the SHA-256 of its token (migration 2026-12-03T0300). */
export interface WaitlistLinkTable {
  token_hash: string;
  application_id: string;
  issued_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

/** One change of a household's place on a waitlist (migration 2026-12-03T0300). */
export interface WaitlistChangeTable {
  id: Generated<string>;
  application_id: string;
  at: ColumnType<Date, Date | string, Date | string>;
  state: WaitlistState;
  reason: string;
  note: string | null;
  by_user_id: string | null;
}

export interface WaitlistTables {
  waitlist_check_ins: WaitlistCheckInTable;
  waitlist_links: WaitlistLinkTable;
  waitlist_changes: WaitlistChangeTable;
}
