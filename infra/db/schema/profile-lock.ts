import type { ColumnType } from 'kysely';

/**
 * The household profile lock (spec section 4: confirming the recertification profile is
 * irreversible and locks it against editing). One row per locked household; no row means unlocked.
 * Household edits check it; recertification sets and clears it.
 */
export interface ProfileLockTable {
  household_id: string;
  /** Why it is locked, e.g. 'recertification' or 'lease_up_submission'. */
  reason: string;
  /** The workflow that holds the lock, if any. */
  workflow_id: string | null;
  locked_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ProfileLockTables {
  profile_locks: ProfileLockTable;
}
