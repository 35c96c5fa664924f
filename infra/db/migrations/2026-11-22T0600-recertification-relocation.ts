import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/** HUD 2023 New York City 100% AMI by household size (shared/design/workflows.md "Income bands"). */
const HUD_2023_NYC = [108_700, 124_300, 139_800, 155_300, 167_700, 180_100, 192_600, 205_000];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenancies')
    .addColumn('household_id', 'uuid', (c) => c.primaryKey().references('households.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('unit_number', 'text', (c) => c.notNull())
    .addColumn('bedrooms', 'text', (c) => c.notNull())
    .addColumn('lease_start', 'date', (c) => c.notNull())
    .addColumn('declared_annual_income', sql`numeric(12,2)`)
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ami_limits')
    .addColumn('household_size', 'integer', (c) => c.primaryKey().check(sql`household_size between 1 and 20`))
    .addColumn('ami_100', sql`numeric(12,2)`, (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('ami_limits')
    .values(HUD_2023_NYC.map((ami, i) => ({ household_size: i + 1, ami_100: ami, source: 'HUD 2023 New York City' })))
    .execute();

  await db.schema
    .createTable('recertification_cases')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('tenant_user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('deadline', 'date', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('profile_locked', 'boolean', (c) => c.notNull())
    .addColumn('tenant_signed', 'boolean', (c) => c.notNull())
    .addColumn('pending_tasks', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state_updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state_version', 'integer', (c) => c.notNull())
    .addColumn('projected_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('recertification_cases_household').on('recertification_cases').columns(['household_id', 'started_at']).execute();

  await db.schema
    .createTable('relocation_cases')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('tenant_user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('under_relocation', 'boolean', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz')
    .addColumn('pending_tasks', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state_updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('state_version', 'integer', (c) => c.notNull())
    .addColumn('projected_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('relocation_cases_household').on('relocation_cases').columns(['household_id', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('relocation_cases').execute();
  await db.schema.dropTable('recertification_cases').execute();
  await db.schema.dropTable('ami_limits').execute();
  await db.schema.dropTable('tenancies').execute();
}
