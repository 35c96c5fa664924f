import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/**
 * The lottery: an opportunity selects by lottery or first come; a lottery opportunity
 * has one durable workflow whose read model is `opportunity_lotteries` (its committed seed hash,
 * the draw's published values, invitation progress). Applications wait 'in_lottery' without a
 * workflow, get a rank at the draw ('waitlisted'), and a lease-up workflow only when invited.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('opportunities')
    .addColumn('selection', 'text', (c) => c.notNull().defaultTo('first_come').check(sql`selection in ('first_come', 'lottery')`))
    .addColumn('lottery_set_asides', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('lottery_community_board', 'text')
    .execute();

  await db.schema
    .createTable('opportunity_lotteries')
    .addColumn('opportunity_id', 'uuid', (c) => c.primaryKey().references('opportunities.id').onDelete('cascade'))
    .addColumn('workflow_id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('paused', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deadline', 'date', (c) => c.notNull())
    .addColumn('units', 'integer', (c) => c.notNull())
    .addColumn('set_asides', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('community_board', 'text')
    // The secret seed, encrypted with the data key until the draw reveals it; its SHA-256 is public from the start.
    .addColumn('seed_encrypted', 'text', (c) => c.notNull())
    .addColumn('seed_hash', 'text', (c) => c.notNull())
    .addColumn('seed_revealed', 'text')
    .addColumn('public_value', 'text')
    .addColumn('algorithm', 'text')
    .addColumn('list_hash', 'text')
    .addColumn('result_hash', 'text')
    .addColumn('entries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invited', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('drawn_at', 'timestamptz')
    .addColumn('view', 'jsonb')
    .addColumn('state_version', 'integer', (c) => c.notNull())
    .addColumn('state_updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .alterTable('applications')
    .addColumn('lottery_rank', 'integer')
    .addColumn('lottery_groups', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('lottery_group_positions', 'jsonb')
    .addColumn('lottery_skip_reason', 'text')
    .addColumn('invited_at', 'timestamptz')
    .execute();
  // Invite the next in rank order; page a lottery's ranked list; find one log number in the public results.
  await db.schema.createIndex('applications_lottery_waitlist').on('applications').columns(['opportunity_id', 'status', 'lottery_rank']).execute();
  await db.schema.createIndex('applications_lottery_rank').on('applications').columns(['opportunity_id', 'lottery_rank', 'id']).execute();
  await db.schema.createIndex('applications_opportunity_log').on('applications').columns(['opportunity_id', 'log_number']).execute();

  // A unit given back by an invited household (offer declined or expired, withdrawal, final
  // rejection), recorded once by its key after the opportunity workflow has been told.
  await db.schema
    .createTable('lottery_releases')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id').onDelete('cascade'))
    .addColumn('application_id', 'uuid', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lottery_releases').execute();
  for (const index of ['applications_lottery_waitlist', 'applications_lottery_rank', 'applications_opportunity_log']) await db.schema.dropIndex(index).execute();
  for (const column of ['lottery_rank', 'lottery_groups', 'lottery_group_positions', 'lottery_skip_reason', 'invited_at']) {
    await db.schema.alterTable('applications').dropColumn(column).execute();
  }
  await db.schema.dropTable('opportunity_lotteries').execute();
  for (const column of ['selection', 'lottery_set_asides', 'lottery_community_board']) await db.schema.alterTable('opportunities').dropColumn(column).execute();
}
