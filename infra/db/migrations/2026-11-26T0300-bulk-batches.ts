import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Bulk actions from the manager's inbox: one row per batch (what is done to the
// cases, by whom, its state) and one row per case of the batch with its result. The batch's
// workflow pages through the pending cases by (batch_id, case_id); the manager's lists page by
// (created_at, id) per organisation and by (case_id) per batch and status.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bulk_batches')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_by', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('requestDocument', 'sendReminder', 'reject')`))
    .addColumn('input', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'cancelling', 'completed', 'cancelled')`))
    .addColumn('total', 'integer', (c) => c.notNull())
    // The last version of the batch's workflow projected here (an older one never overwrites it).
    .addColumn('state_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index bulk_batches_org on bulk_batches (organization_id, created_at, id)`.execute(db);

  await db.schema
    .createTable('bulk_batch_cases')
    .addColumn('batch_id', 'uuid', (c) => c.notNull().references('bulk_batches.id').onDelete('cascade'))
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'done', 'refused', 'skipped')`))
    .addColumn('refusal', 'text')
    .addColumn('finished_at', 'timestamptz')
    .addPrimaryKeyConstraint('bulk_batch_cases_pk', ['batch_id', 'case_id'])
    .execute();
  // Progress counts and the results filtered by outcome; the workflow's next pending cases.
  await sql`create index bulk_batch_cases_status on bulk_batch_cases (batch_id, status, case_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bulk_batch_cases').execute();
  await db.schema.dropTable('bulk_batches').execute();
}
