import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

export async function up(db: Kysely<any>): Promise<void> {
  // Opportunity details managers edit, and the per-opportunity timer settings of the lease-up workflow.
  await db.schema
    .alterTable('opportunities')
    .addColumn('building', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('offer_expiry_days', 'integer', (c) => c.notNull().defaultTo(7))
    .addColumn('appeal_window_days', 'integer', (c) => c.notNull().defaultTo(14))
    .addColumn('appeal_decision_business_days', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('additional_documents_days', 'integer', (c) => c.notNull().defaultTo(14))
    .addColumn('paper_application_key', 'text')
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id'))
    .execute();

  // The applications read model also records the unit an accepted offer holds.
  await db.schema.alterTable('applications').addColumn('held_unit_id', 'uuid').execute();

  await db.schema
    .createTable('favorite_opportunities')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id').onDelete('cascade'))
    .addColumn('is_favorite', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('favorite_opportunities_pk', ['user_id', 'opportunity_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('favorite_opportunities').execute();
  await db.schema.alterTable('applications').dropColumn('held_unit_id').execute();
  await db.schema
    .alterTable('opportunities')
    .dropColumn('building')
    .dropColumn('offer_expiry_days')
    .dropColumn('appeal_window_days')
    .dropColumn('appeal_decision_business_days')
    .dropColumn('additional_documents_days')
    .dropColumn('paper_application_key')
    .dropColumn('published_at')
    .dropColumn('created_by')
    .execute();
}
