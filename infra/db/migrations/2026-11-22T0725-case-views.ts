import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/**
 * The last projected view of each recertification and relocation, so a case stays readable after
 * its workflow history has passed the Temporal namespace's retention.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('recertification_cases').addColumn('view', 'jsonb').execute();
  await db.schema.alterTable('relocation_cases').addColumn('view', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('relocation_cases').dropColumn('view').execute();
  await db.schema.alterTable('recertification_cases').dropColumn('view').execute();
}
