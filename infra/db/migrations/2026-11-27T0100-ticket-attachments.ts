import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Files attached to a support ticket (when it is opened and with a reply), kept private
// in the blob store like household documents (same checks; the file name is kept as documents keep
// theirs), and the kind of a chat message so a "shared a document" notice is shown in the reader's
// language instead of stored in English.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('support_ticket_attachments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('ticket_id', 'uuid', (c) => c.notNull().references('support_tickets.id').onDelete('cascade'))
    // The thread message the file came with (1 = the opening message).
    .addColumn('message_seq', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index support_ticket_attachments_ticket on support_ticket_attachments (ticket_id, message_seq, uploaded_at, id)`.execute(db);
  await sql`create index support_ticket_attachments_uploaded_by on support_ticket_attachments (uploaded_by) where uploaded_by is not null`.execute(db);

  // 'text' (written by a person) or 'documents_shared' (the body holds the file names only).
  await db.schema
    .alterTable('chat_messages')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('text').check(sql`kind in ('text', 'documents_shared')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_messages').dropColumn('kind').execute();
  await db.schema.dropTable('support_ticket_attachments').execute();
}
