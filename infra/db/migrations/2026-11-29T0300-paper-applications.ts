import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Paper and mail applicants, the frozen list and cross-channel duplicates:
// - an opportunity's mail grace period: days after the deadline when mail postmarked by the deadline is still entered;
// - the list the lottery freezes at the end of that period, committed by its hash and size before any draw;
// - each application's channel and postmark (the draw never reads them);
// - households without a login (entered from a paper form), their language and sealed mailing
//   address, and the hash of the code that lets them claim their application online;
// - a keyed hash per application to find the same person applying twice (nothing personal in plain);
// - the pairs it finds and the manager's decision;
// - letters to print and mail, queued for the office.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('opportunities')
    .addColumn('mail_grace_days', 'integer', (c) => c.notNull().defaultTo(7).check(sql`mail_grace_days between 0 and 60`))
    .execute();

  await db.schema
    .alterTable('opportunity_lotteries')
    .addColumn('mail_grace_days', 'integer', (c) => c.notNull().defaultTo(7))
    .addColumn('frozen_list_hash', 'text')
    .addColumn('frozen_entries', 'integer')
    .addColumn('frozen_at', 'timestamptz')
    .execute();

  await db.schema
    .alterTable('households')
    .addColumn('login', 'text', (c) => c.notNull().defaultTo('account').check(sql`login in ('account', 'none')`))
    .addColumn('language', 'text')
    .addColumn('mailing_address_sealed', 'text')
    .addColumn('claim_code_hash', 'text', (c) => c.unique())
    .addColumn('claimed_at', 'timestamptz')
    .execute();

  await db.schema
    .alterTable('applications')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('online').check(sql`channel in ('online', 'paper')`))
    .addColumn('postmark_date', 'date')
    .addColumn('paper_form_document_id', 'uuid', (c) => c.references('household_documents.id').onDelete('set null'))
    .addColumn('entered_by', 'uuid', (c) => c.references('users.id'))
    .execute();
  // The manager's paper entries of one opportunity, newest first, by cursor.
  await sql`create index applications_paper_entries on applications (opportunity_id, applied_at desc, id desc) where channel = 'paper'`.execute(db);

  // HMAC (a key derived from the data key) of normalised name, date of birth and last 4 of the identifier.
  await db.schema
    .createTable('application_match_keys')
    .addColumn('application_id', 'uuid', (c) => c.primaryKey().references('applications.id').onDelete('cascade'))
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id').onDelete('cascade'))
    .addColumn('match_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('application_match_keys_lookup').on('application_match_keys').columns(['opportunity_id', 'match_key']).execute();

  await db.schema
    .createTable('lottery_duplicate_pairs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('opportunity_id', 'uuid', (c) => c.notNull().references('opportunities.id').onDelete('cascade'))
    // Ordered (first < second) so a pair is recorded once whichever application came second.
    .addColumn('first_application_id', 'uuid', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('second_application_id', 'uuid', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('kept_application_id', 'uuid', (c) => c.references('applications.id'))
    .addColumn('reason', 'text')
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('lottery_duplicate_pairs_once', ['first_application_id', 'second_application_id'])
    .addCheckConstraint('lottery_duplicate_pairs_ordered', sql`first_application_id < second_application_id`)
    .addCheckConstraint('lottery_duplicate_pairs_decided', sql`(decided_at is null) = (kept_application_id is null)`)
    .execute();
  // The manager's list (undecided first, oldest first, by cursor) and the freeze's "any undecided?" check.
  await db.schema.createIndex('lottery_duplicate_pairs_list').on('lottery_duplicate_pairs').columns(['opportunity_id', 'created_at', 'id']).execute();
  await sql`create index lottery_duplicate_pairs_undecided on lottery_duplicate_pairs (opportunity_id, created_at, id) where decided_at is null`.execute(db);
  await db.schema.createIndex('lottery_duplicate_pairs_second').on('lottery_duplicate_pairs').column('second_application_id').execute();

  await db.schema
    .createTable('mailed_letters')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('application_id', 'uuid', (c) => c.references('applications.id').onDelete('set null'))
    .addColumn('letter', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    // The PDF in blob storage (sealed like every document); the key names no person.
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('queued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('printed_at', 'timestamptz')
    .addColumn('printed_by', 'uuid', (c) => c.references('users.id'))
    .addColumn('mailed_at', 'timestamptz')
    .addColumn('mailed_by', 'uuid', (c) => c.references('users.id'))
    .execute();
  // The office's "to print and mail" list (oldest first) and its history (newest first), by cursor.
  await sql`create index mailed_letters_to_mail on mailed_letters (organization_id, queued_at, id) where mailed_at is null`.execute(db);
  await db.schema.createIndex('mailed_letters_sent').on('mailed_letters').columns(['organization_id', 'queued_at desc', 'id desc']).execute();
  await db.schema.createIndex('mailed_letters_household').on('mailed_letters').columns(['household_id', 'queued_at']).execute();

  // Every foreign key leads an index, so deleting a user, document or application never reads a whole table.
  const keyed: [string, string][] = [
    ['applications', 'entered_by'],
    ['applications', 'paper_form_document_id'],
    ['lottery_duplicate_pairs', 'decided_by'],
    ['lottery_duplicate_pairs', 'kept_application_id'],
    ['mailed_letters', 'application_id'],
    ['mailed_letters', 'printed_by'],
    ['mailed_letters', 'mailed_by'],
  ];
  for (const [table, column] of keyed) await sql`create index ${sql.id(`${table}_${column}`)} on ${sql.table(table)} (${sql.ref(column)}) where ${sql.ref(column)} is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['mailed_letters', 'lottery_duplicate_pairs', 'application_match_keys']) await db.schema.dropTable(table).execute();
  await sql`drop index applications_paper_entries`.execute(db);
  for (const column of ['entered_by', 'paper_form_document_id', 'postmark_date', 'channel']) await db.schema.alterTable('applications').dropColumn(column).execute();
  for (const column of ['claimed_at', 'claim_code_hash', 'mailing_address_sealed', 'language', 'login']) await db.schema.alterTable('households').dropColumn(column).execute();
  for (const column of ['frozen_at', 'frozen_entries', 'frozen_list_hash', 'mail_grace_days']) await db.schema.alterTable('opportunity_lotteries').dropColumn(column).execute();
  await db.schema.alterTable('opportunities').dropColumn('mail_grace_days').execute();
}
