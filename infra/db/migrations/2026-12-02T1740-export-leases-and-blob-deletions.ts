import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// - `my_data_export_leases`: one "Download my data" per household at a time, across API replicas.
//   A download holds its household's row until it ends; a replica that dies mid-download leaves a
//   row whose `expires_at` passes, and the next download takes it over.
// - `blob_deletions`: files the retention sweep removes, written in the same transaction that
//   removes their rows and deleted from the store after the commit; a key is dropped from this
//   table only once the store confirmed it, so a crash in between is finished by the next run.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('my_data_export_leases')
    .addColumn('household_id', 'uuid', (c) => c.primaryKey().references('households.id').onDelete('cascade'))
    .addColumn('lease_id', 'uuid', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('blob_deletions')
    .addColumn('blob_key', 'text', (c) => c.primaryKey())
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blob_deletions').execute();
  await db.schema.dropTable('my_data_export_leases').execute();
}
