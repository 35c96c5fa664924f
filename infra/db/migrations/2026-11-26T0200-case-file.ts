import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/**
 * A document's review can also be an acceptance (who and when),
 * and each approved recertification keeps a snapshot of what was certified, so the next cycle's
 * review shows what changed. The snapshot holds incomes and assets: it is sealed with the data key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('household_documents')
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('reviewed_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reviewed_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('certification_records')
    .addColumn('case_id', 'uuid', (c) => c.primaryKey())
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('approved_at', 'timestamptz', (c) => c.notNull())
    .addColumn('facts_sealed', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The last approved certification of a household, newest first.
  await db.schema.createIndex('certification_records_household_approved').on('certification_records').columns(['household_id', 'approved_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('certification_records').ifExists().execute();
  await db.schema.alterTable('household_documents').dropColumn('reviewed_at').dropColumn('reviewed_by').dropColumn('accepted_at').execute();
}
