import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// A signed letter (TIC, lease letter) is the record; each signed copy's SHA-256 is kept
// with its case, so a copy shown later can be checked against what was signed. Tenancies gain the
// monthly rent the recertification TIC prints.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signed_letters')
    // The signed copy's blob key: one row per signature, written again unchanged by a retried activity.
    .addColumn('signed_key', 'text', (c) => c.primaryKey())
    .addColumn('case_kind', 'text', (c) => c.notNull().check(sql`case_kind in ('lease_up', 'recertification')`))
    .addColumn('case_id', 'uuid', (c) => c.notNull())
    .addColumn('letter', 'text', (c) => c.notNull().check(sql`letter in ('tic', 'lease')`))
    .addColumn('letter_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
    .addColumn('signer_id', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('signed_letters_case').on('signed_letters').columns(['case_id', 'signed_at', 'signed_key']).execute();
  await db.schema.alterTable('tenancies').addColumn('monthly_rent', sql`numeric(12,2)`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenancies').dropColumn('monthly_rent').execute();
  await db.schema.dropTable('signed_letters').execute();
}
