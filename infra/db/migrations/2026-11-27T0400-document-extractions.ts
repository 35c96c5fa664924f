import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Figures read from an uploaded bank statement or pay stub: one reading per
// document, written by the extraction workflow's activity. What it read (text, figures: incomes,
// account digits) is personal data, sealed in `result_sealed`; it is only proposed to the resident
// and saved as an asset or income once confirmed (`confirmed_at`).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('document_extractions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('document_id', 'uuid', (c) => c.notNull().unique().references('household_documents.id').onDelete('cascade'))
    .addColumn('document_type', 'text', (c) => c.notNull().check(sql`document_type in ('bank_statement', 'pay_stub')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'ready', 'failed')`))
    .addColumn('result_sealed', 'text')
    .addColumn('failure', 'text')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('confirmed_at', 'timestamptz')
    .execute();
  // The household's readings (and its foreign key); document_id has its unique index.
  await sql`create index document_extractions_household on document_extractions (household_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('document_extractions').execute();
}
