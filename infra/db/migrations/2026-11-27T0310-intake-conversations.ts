import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// The intake assistant's conversation, one per user, so it can pause and resume. The
// state holds answers not yet saved (names, identifiers), so it is sealed with the data key.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('intake_conversations')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('state', 'jsonb', (c) => c.notNull())
    .addColumn('paused', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index intake_conversations_household_id on intake_conversations (household_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('intake_conversations').execute();
}
