import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Identity: refresh tokens, one-time codes, impersonation audit, ambassador organisations, the
// tenant roster used for profile matching, saved signatures, and per-user notification settings.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('notify_email', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('notify_sms', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('phone_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('applicant_match_required', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  // Opaque refresh tokens, stored as SHA-256 hashes; one family per sign-in, rotated on every use.
  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('family_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('real_user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();

  // OTPs and link tokens (email verification, password reset, grants): hashed, single-use, expiring.
  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('one_time_codes_user_purpose').on('one_time_codes').columns(['user_id', 'purpose']).execute();
  await db.schema.createIndex('one_time_codes_hash').on('one_time_codes').column('code_hash').execute();

  // Who acted as whom: every impersonated request, and each start and exit.
  await db.schema
    .createTable('impersonation_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('real_user_id', 'uuid', (c) => c.notNull())
    .addColumn('acting_user_id', 'uuid', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull().check(sql`event in ('start', 'exit', 'request')`))
    .addColumn('method', 'text')
    .addColumn('path', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('impersonation_audit_real').on('impersonation_audit').columns(['real_user_id', 'created_at']).execute();

  await db.schema
    .createTable('ambassador_organizations')
    .addColumn('ambassador_user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ambassador_organizations_pk', ['ambassador_user_id', 'organization_id'])
    .execute();

  // The managing agent's list of residents (rent roll): a tenant account is matched to one row.
  await db.schema
    .createTable('tenant_roster')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id'))
    .addColumn('building_id', 'uuid', (c) => c.notNull())
    .addColumn('building_name', 'text', (c) => c.notNull())
    .addColumn('building_address', 'text', (c) => c.notNull())
    .addColumn('unit_number', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('date_of_birth', 'date', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('linked_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('tenant_roster_building').on('tenant_roster').columns(['building_id', 'unit_number']).execute();

  await db.schema
    .createTable('user_signatures')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('drawn', 'typed')`))
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Delivery retries wait before the next attempt.
  await db.schema
    .alterTable('notification_outbox')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_outbox').dropColumn('next_attempt_at').execute();
  for (const table of ['user_signatures', 'tenant_roster', 'ambassador_organizations', 'impersonation_audit', 'one_time_codes', 'refresh_tokens']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema
    .alterTable('users')
    .dropColumn('notify_email')
    .dropColumn('notify_sms')
    .dropColumn('phone_verified')
    .dropColumn('applicant_match_required')
    .execute();
}
