import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Listing alerts:
// - `opportunities.area`: the borough a listing stands in (a county code), so an alert for areas
//   can be matched; null when the manager gave none.
// - `listing_alerts`: one saved alert, of a signed-in user (`user_id`) or of a signed-out visitor
//   (`contact_sealed`, the e-mail address or number, sealed; `contact_hash`, its keyed hash, to find
//   the pending alert a YES text confirms and to throttle). The criteria no rule needs to decrypt
//   are plain columns the fan-out filters on in SQL; household size and income are sealed in
//   `personal_sealed` and matched in code. Tokens are kept only as hashes (the unsubscribe token is
//   also sealed, since every notice carries its link).
// - `listing_alert_notices`: the ledger of (listing, alert) pairs already notified (or gathered for
//   the weekly digest); its primary key makes a notice go once, however often a batch is retried.
// - `listing_alert_confirmation_sends`: when a confirmation went to a contact, to throttle per address.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('opportunities').addColumn('area', 'text').execute();
  await db.schema
    .createTable('listing_alerts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('contact_sealed', 'text')
    .addColumn('contact_hash', 'text')
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('language', 'text', (c) => c.notNull().check(sql`language in ('en', 'es', 'zh', 'bn')`))
    .addColumn('frequency', 'text', (c) => c.notNull().check(sql`frequency in ('immediate', 'weekly')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending_confirmation', 'active', 'paused')`))
    .addColumn('tenure', 'text', (c) => c.check(sql`tenure in ('rental', 'ownership')`))
    .addColumn('bedroom_types', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('areas', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('accessibility', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('set_aside_groups', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('personal_sealed', 'text', (c) => c.notNull())
    .addColumn('confirmation_token_hash', 'text', (c) => c.unique())
    .addColumn('unsubscribe_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('unsubscribe_token_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Either an account's alert or a visitor's with a contact: never both, never neither.
    .addCheckConstraint('listing_alerts_owner', sql`(user_id is null) <> (contact_sealed is null) and (contact_sealed is null) = (contact_hash is null)`)
    .execute();
  // The owner's list, by cursor (newest first).
  await db.schema.createIndex('listing_alerts_user_created').on('listing_alerts').columns(['user_id', 'created_at', 'id']).where(sql.ref('user_id'), 'is not', null).execute();
  // The fan-out pages through active alerts by id, filtering on tenure, sizes and areas.
  await sql`create index listing_alerts_active on listing_alerts (id) include (tenure, frequency) where status = 'active'`.execute(db);
  await sql`create index listing_alerts_bedroom_types on listing_alerts using gin (bedroom_types) where status = 'active'`.execute(db);
  await sql`create index listing_alerts_areas on listing_alerts using gin (areas) where status = 'active'`.execute(db);
  await db.schema.createIndex('listing_alerts_contact').on('listing_alerts').columns(['contact_hash', 'status']).where(sql.ref('contact_hash'), 'is not', null).execute();
  await db.schema
    .createTable('listing_alert_notices')
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id').onDelete('cascade'))
    .addColumn('alert_id', 'uuid', (c) => c.notNull().references('listing_alerts.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A weekly alert's matches wait here for the digest of their week (null: sent at once).
    .addColumn('digest_week', 'date')
    .addColumn('digested_at', 'timestamptz')
    .addPrimaryKeyConstraint('listing_alert_notices_pk', ['opportunity_id', 'alert_id'])
    .execute();
  await db.schema.createIndex('listing_alert_notices_alert').on('listing_alert_notices').column('alert_id').execute();
  await sql`create index listing_alert_notices_digest on listing_alert_notices (digest_week, alert_id) where digest_week is not null and digested_at is null`.execute(db);
  await db.schema
    .createTable('listing_alert_confirmation_sends')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('contact_hash', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('listing_alert_confirmation_sends_contact').on('listing_alert_confirmation_sends').columns(['contact_hash', 'sent_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('listing_alert_confirmation_sends').execute();
  await db.schema.dropTable('listing_alert_notices').execute();
  await db.schema.dropTable('listing_alerts').execute();
  await db.schema.alterTable('opportunities').dropColumn('area').execute();
}
