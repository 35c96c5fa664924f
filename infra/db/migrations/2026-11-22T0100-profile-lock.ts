import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('profile_locks')
    .addColumn('household_id', 'uuid', (c) => c.primaryKey().references('households.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text')
    .addColumn('locked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('profile_locks').execute();
}
