import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Every foreign key leads an index: deleting a household or a user must not scan the
// support tickets and messages, and a household's tickets are listed by it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('support_tickets_household').on('support_tickets').column('household_id').execute();
  await db.schema.createIndex('chat_messages_sender').on('chat_messages').column('sender_user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('chat_messages_sender').execute();
  await db.schema.dropIndex('support_tickets_household').execute();
}
