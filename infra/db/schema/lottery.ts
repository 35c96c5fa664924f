import type { ColumnType } from 'kysely';
import type { LotteryGroup } from '../../../domain/lottery';
import type { InvitationLogEvent, InvitationLogReason } from '../../../domain/invitation-log';
import type { WaitlistState } from '../../../domain/waitlist';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | undefined, string>;

/** A lottery's set-aside: the share of units reserved for households in a preference group. */
export interface SetAsideRow {
  group: LotteryGroup;
  share: number;
}

/** The read model of one opportunity's lottery workflow (migration 2026-11-23T0200). */
export interface OpportunityLotteryTable {
  opportunity_id: string;
  workflow_id: string;
  organization_id: string;
  stage: string;
  paused: ColumnType<boolean, boolean | undefined, boolean>;
  deadline: ColumnType<string, string, string>;
  units: number;
  set_asides: Json<SetAsideRow[]>;
  community_board: string | null;
  seed_encrypted: string;
  seed_hash: string;
  seed_revealed: string | null;
  public_value: string | null;
  algorithm: string | null;
  list_hash: string | null;
  result_hash: string | null;
  entries: ColumnType<number, number | undefined, number>;
  invited: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  drawn_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  view: ColumnType<unknown, string | null | undefined, string | null>;
  mail_grace_days: ColumnType<number, number | undefined, number>;
  /** The list as frozen at the end of the mail grace period, published before the draw. */
  frozen_list_hash: string | null;
  frozen_entries: number | null;
  frozen_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 2026-12-03T0500: the invitation log's last line hash and its number of lines. */
  invitation_log_head: ColumnType<string | null, string | null | undefined, string | null>;
  invitation_log_length: ColumnType<number, number | undefined, number>;
  state_version: number;
  state_updated_at: Timestamp;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface LotteryReleaseTable {
  key: string;
  opportunity_id: string;
  application_id: string;
  reason: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One line of a lottery's append-only invitation log (migration 2026-12-03T0500, domain/invitation-log.ts). */
export interface LotteryInvitationLogTable {
  opportunity_id: string;
  seq: number;
  application_id: string;
  log_number: string;
  rank: number;
  event: InvitationLogEvent;
  reason: InvitationLogReason;
  unit_sizes: Json<string[]>;
  at: Timestamp;
  dedupe_key: string;
  hash: string;
}

export interface LotteryTables {
  opportunity_lotteries: OpportunityLotteryTable;
  lottery_releases: LotteryReleaseTable;
  lottery_invitation_log: LotteryInvitationLogTable;
}

/** Columns the lottery migration adds to `opportunities`. */
export interface OpportunityLotteryColumns {
  selection: ColumnType<'first_come' | 'lottery', 'first_come' | 'lottery' | undefined, 'first_come' | 'lottery'>;
  lottery_set_asides: Json<SetAsideRow[]>;
  lottery_community_board: string | null;
  /** Migration 2026-12-03T0200: months between a waitlisted household's check-ins. */
  waitlist_check_in_months: ColumnType<number, number | undefined, number>;
}

/** Columns the lottery migration adds to `applications`. */
export interface ApplicationLotteryColumns {
  lottery_rank: ColumnType<number | null, number | null | undefined, number | null>;
  lottery_groups: Json<string[]>;
  lottery_group_positions: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
  lottery_skip_reason: ColumnType<string | null, string | null | undefined, string | null>;
  invited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 2026-12-03T0200: the household's place on the waitlist (domain/waitlist.ts). */
  waitlist_state: ColumnType<WaitlistState, WaitlistState | undefined, WaitlistState>;
  waitlist_state_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  waitlist_state_reason: string | null;
  declined_bedroom_types: Json<string[]>;
  waitlist_confirmed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  waitlist_next_check_in_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
