import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// The translation memory (one row per text and language pair; the text is keyed by an
// HMAC under the data key and both texts are sealed, as they are people's own words).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('translation_memory')
    .addColumn('text_hash', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('original_encrypted', 'text', (c) => c.notNull())
    .addColumn('translated_encrypted', 'text', (c) => c.notNull())
    .addColumn('detected', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Pruning the least recently used rows reads this.
  await sql`create index translation_memory_used_at on translation_memory (used_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('translation_memory').execute();
}
