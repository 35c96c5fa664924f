import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/**
 * The last projected view of each lease-up application, as recertifications and relocations have:
 * one case's detail, timeline and letters stay readable once its workflow history has passed the
 * Temporal namespace's retention (the same read path for every case kind).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('applications').addColumn('view', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('applications').dropColumn('view').execute();
}
