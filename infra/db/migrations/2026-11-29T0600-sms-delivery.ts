import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Text messages through a provider, and notices by the channels each person chose:
// - each outbox row keeps the provider's message id and the delivery state it reports, and why
//   it never arrived (sender gave up, network could not deliver, number opted out);
// - each row of a case notice names the notice and the case it belongs to, so a notice sent by
//   email and text is one notice, and the manager sees on the case when it reached nobody;
// - numbers that texted STOP (and START again), by their digits.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notification_outbox')
    .addColumn('provider_message_id', 'text')
    .addColumn('delivery_status', 'text')
    .addColumn('undelivered_reason', 'text', (c) => c.check(sql`undelivered_reason in ('failed', 'undelivered', 'opted_out', 'bounced')`))
    .addColumn('notice_key', 'text')
    .addColumn('case_key', 'text')
    .execute();
  await sql`create unique index notification_outbox_provider_message on notification_outbox (provider_message_id) where provider_message_id is not null`.execute(db);
  await sql`create index notification_outbox_case on notification_outbox (case_key, created_at) where case_key is not null`.execute(db);
  await sql`create index notification_outbox_undelivered on notification_outbox (created_at) where undelivered_reason is not null`.execute(db);

  await db.schema
    .createTable('sms_opt_outs')
    .addColumn('phone_key', 'text', (c) => c.primaryKey())
    .addColumn('opted_out', 'boolean', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_opt_outs').execute();
  await db.schema
    .alterTable('notification_outbox')
    .dropColumn('provider_message_id')
    .dropColumn('delivery_status')
    .dropColumn('undelivered_reason')
    .dropColumn('notice_key')
    .dropColumn('case_key')
    .execute();
}
