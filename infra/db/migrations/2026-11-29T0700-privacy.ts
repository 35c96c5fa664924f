import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Privacy: every personal field accounted for (domain/data-classification.ts).
// - The income declared when applying is sealed like income entries (`household_income_encrypted`,
//   written by the API); the plain column stays, nullable, only for rows written before, until the
//   start-up sweep or `npm run keys:rotate` seals them. No list filters or sorts by it in SQL.
// - Asset details keep their jsonb column, as a sealed JSON value (no schema change needed).
// - Each organisation keeps closed applications' personal data for its own retention period
//   (default 7 years); a purged application keeps its log number, status and dates for statistics.
// - Exports of a household's data and purges are recorded in `privacy_audit`, only ever inserted.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('applications').addColumn('household_income_encrypted', 'text').execute();
  await db.schema.alterTable('applications').alterColumn('household_income', (c) => c.dropNotNull()).execute();
  await db.schema.alterTable('applications').addColumn('purged_at', 'timestamptz').execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('retention_days', 'integer', (c) => c.notNull().defaultTo(2555).check(sql`retention_days between 30 and 36500`))
    .execute();
  await db.schema
    .createTable('privacy_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('export', 'purge')`))
    // No foreign key: the log outlives what it names (an empty household given way to a claimed one is deleted).
    .addColumn('household_id', 'uuid', (c) => c.notNull())
    .addColumn('application_id', 'uuid')
    .addColumn('actor_user_id', 'uuid', (c) => c.references('users.id'))
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('privacy_audit_household').on('privacy_audit').columns(['household_id', 'id desc']).execute();
  await db.schema.createIndex('privacy_audit_actor').on('privacy_audit').columns(['actor_user_id']).execute();
  // The retention sweep looks for closed, unpurged applications by their last change.
  await sql`create index applications_retention on applications (state_updated_at, id) where purged_at is null and status in ('withdrawn', 'closed', 'ended')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists applications_retention`.execute(db);
  await db.schema.dropTable('privacy_audit').execute();
  await db.schema.alterTable('organizations').dropColumn('retention_days').execute();
  await db.schema.alterTable('applications').dropColumn('purged_at').execute();
  // Sealed rows cannot be turned back into plain numbers here (no key): their income becomes 0.
  await sql`update applications set household_income = 0 where household_income is null`.execute(db);
  await db.schema.alterTable('applications').alterColumn('household_income', (c) => c.setNotNull()).execute();
  await db.schema.alterTable('applications').dropColumn('household_income_encrypted').execute();
}
