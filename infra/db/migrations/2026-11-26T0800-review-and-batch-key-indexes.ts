import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Every foreign key leads an index: deleting or merging a user looks up the documents
// they reviewed (the case file) and the bulk batches they started (bulk actions).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index household_documents_reviewed_by on household_documents (reviewed_by) where reviewed_by is not null`.execute(db);
  await sql`create index bulk_batches_created_by on bulk_batches (created_by)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bulk_batches_created_by').execute();
  await db.schema.dropIndex('household_documents_reviewed_by').execute();
}
