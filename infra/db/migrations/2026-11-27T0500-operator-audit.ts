import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Every operator action on a case (revealing personal fields of its history,
// exporting it, retrying, terminating or resetting it) is recorded with who, when, the case, the
// reason given and what was done. Rows are only ever added.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operator_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('actor_user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('reveal', 'export', 'retry', 'terminate', 'reset')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The audit log pages newest first (the primary key), for one case, or for one operator (its foreign key leads an index).
  await db.schema.createIndex('operator_audit_case').on('operator_audit').columns(['workflow_id', 'id desc']).execute();
  await db.schema.createIndex('operator_audit_actor').on('operator_audit').columns(['actor_user_id', 'id desc']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('operator_audit').execute();
}
