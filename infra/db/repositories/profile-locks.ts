import type { Db } from '../database';

/** Locks a household profile (idempotent: locking a locked profile keeps the first lock). */
export async function lockProfile(db: Db, input: { householdId: string; reason: string; workflowId: string | null }): Promise<void> {
  await db
    .insertInto('profile_locks')
    .values({ household_id: input.householdId, reason: input.reason, workflow_id: input.workflowId })
    .onConflict((oc) => oc.column('household_id').doNothing())
    .execute();
}

/** Unlocks it (idempotent). */
export async function unlockProfile(db: Db, input: { householdId: string }): Promise<void> {
  await db.deleteFrom('profile_locks').where('household_id', '=', input.householdId).execute();
}

export async function isProfileLocked(db: Db, householdId: string): Promise<boolean> {
  const row = await db.selectFrom('profile_locks').select('household_id').where('household_id', '=', householdId).executeTakeFirst();
  return row !== undefined;
}
