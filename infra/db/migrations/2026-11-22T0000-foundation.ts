import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pgcrypto`.execute(db);

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'uuid', (c) => c.references('organizations.id'))
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('mfa_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('preferred_language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('font_size', 'text', (c) => c.notNull().defaultTo('medium'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index users_username_lower on users (lower(username))`.execute(db);
  await sql`create unique index users_email_lower on users (lower(email))`.execute(db);

  await db.schema
    .createTable('households')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('head_user_id', 'uuid', (c) => c.notNull().unique().references('users.id'))
    .addColumn('organization_id', 'uuid', (c) => c.references('organizations.id'))
    .addColumn('household_size', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('profile_completion', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('opportunities')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('rental', 'ownership')`))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amenities', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('requirements', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('income_ranges', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('lottery_end_date', 'date', (c) => c.notNull())
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('units')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id').onDelete('cascade'))
    .addColumn('unit_number', 'text', (c) => c.notNull())
    .addColumn('bedroom_type', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('accessibility', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('monthly_rent', sql`numeric(10,2)`, (c) => c.notNull())
    .addColumn('ami_percent', 'integer', (c) => c.notNull())
    .addUniqueConstraint('units_opportunity_number', ['opportunity_id', 'unit_number'])
    .execute();

  // Log numbers are issued once per application: the primary key makes a repeat a no-op.
  await db.schema
    .createTable('application_log_numbers')
    .addColumn('application_id', 'uuid', (c) => c.primaryKey())
    .addColumn('number', 'bigserial', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Read model of lease-up applications, written only by the projection activity.
  await db.schema
    .createTable('applications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id'))
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('applicant_user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('log_number', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_step', 'text', (c) => c.notNull())
    .addColumn('pending_tasks', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('household_size', 'integer', (c) => c.notNull())
    .addColumn('household_income', sql`numeric(12,2)`, (c) => c.notNull())
    .addColumn('applied_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state_updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state_version', 'integer', (c) => c.notNull())
    .addColumn('projected_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('applications_one_per_household', ['opportunity_id', 'household_id'])
    .execute();
  await db.schema.createIndex('applications_org_status').on('applications').columns(['organization_id', 'status']).execute();
  await db.schema.createIndex('applications_household').on('applications').column('household_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['applications', 'application_log_numbers', 'units', 'opportunities', 'households', 'users', 'organizations']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
