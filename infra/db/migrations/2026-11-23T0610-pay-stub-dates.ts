import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/** Spec sections 5 and 9: pay stubs are the last 6 consecutive, which needs each stub's pay date. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('household_documents').addColumn('pay_date', 'date').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('household_documents').dropColumn('pay_date').execute();
}
