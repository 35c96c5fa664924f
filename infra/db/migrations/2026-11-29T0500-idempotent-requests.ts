import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// A client that lost an answer (a replica killed mid-request, a dropped phone connection) sends the
// same request again with the same Idempotency-Key: the first answer is kept here and given again.
// The key is stored as a hash scoped to the user; the answer, which can hold personal data, sealed.
// A chat message and an uploaded document carry the request's key themselves, so a retry after a
// crash between the write and the kept answer still finds the first write.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotent_requests')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_encrypted', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Old keys are deleted by age; a user's rows go with the user (its foreign key leads an index).
  await db.schema.createIndex('idempotent_requests_created').on('idempotent_requests').column('created_at').execute();
  await db.schema.createIndex('idempotent_requests_user').on('idempotent_requests').column('user_id').execute();
  await db.schema.alterTable('chat_messages').addColumn('request_key', 'text').execute();
  await sql`create unique index chat_messages_request_key on chat_messages (request_key) where request_key is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists chat_messages_request_key`.execute(db);
  await db.schema.alterTable('chat_messages').dropColumn('request_key').execute();
  await db.schema.dropTable('idempotent_requests').execute();
}
