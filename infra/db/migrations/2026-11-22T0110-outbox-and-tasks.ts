import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_outbox')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('params', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await sql`create index notification_outbox_pending on notification_outbox (created_at) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('manager_tasks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('case_kind', 'text', (c) => c.notNull())
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('household_id', 'uuid', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('context_id', 'uuid')
    .addColumn('context_name', 'text')
    .addColumn('due_at', 'timestamptz')
    .addColumn('overdue', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('case_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('manager_tasks_case_action', ['case_kind', 'case_id', 'action'])
    .execute();
  await db.schema.createIndex('manager_tasks_org_due').on('manager_tasks').columns(['organization_id', 'due_at']).execute();

  // The newest projected version of each case, kept even when the case has no open task.
  await db.schema
    .createTable('manager_task_versions')
    .addColumn('case_kind', 'text', (c) => c.notNull())
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('manager_task_versions_pk', ['case_kind', 'case_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('manager_task_versions').execute();
  await db.schema.dropTable('manager_tasks').execute();
  await db.schema.dropTable('notification_outbox').execute();
}
