import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Ambassadors and admins: organisation kinds and access periods, consented access grants,
// organisation applications, the admin audit of user changes, and the indexes behind every list's
// filters and sorts (lists page by cursor on (sort key, id)).

const NAME = sql`lower(first_name || ' ' || last_name)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .alterTable('organizations')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('property_manager').check(sql`kind in ('property_manager', 'ambassador_organization')`))
    .addColumn('access_period_days', 'integer', (c) => c.notNull().defaultTo(90).check(sql`access_period_days between 1 and 365`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index organizations_name on organizations (lower(name), id)`.execute(db);
  await sql`create index organizations_kind_name on organizations (kind, lower(name), id)`.execute(db);
  await sql`create index organizations_created on organizations (created_at, id)`.execute(db);
  await sql`create index organizations_search on organizations using gin (lower(name || ' ' || slug) gin_trgm_ops)`.execute(db);

  // Users lists: an ambassador's (always within their organisations) and the admin's (all users).
  await sql`create index users_org_created on users (organization_id, created_at, id)`.execute(db);
  await sql`create index users_org_name on users (organization_id, ${NAME}, id)`.execute(db);
  await sql`create index users_org_username on users (organization_id, lower(username), id)`.execute(db);
  await sql`create index users_org_email on users (organization_id, lower(email), id)`.execute(db);
  await sql`create index users_org_status on users (organization_id, status, created_at, id)`.execute(db);
  await sql`create index users_created on users (created_at, id)`.execute(db);
  await sql`create index users_name on users (${NAME}, id)`.execute(db);
  await sql`create index users_role_created on users (role, created_at, id)`.execute(db);
  await sql`create index users_status_created on users (status, created_at, id)`.execute(db);
  // The search box matches any part of name, user name, email or phone.
  await sql`create index users_search on users using gin (lower(first_name || ' ' || last_name || ' ' || username || ' ' || email || ' ' || coalesce(phone_number, '')) gin_trgm_ops)`.execute(db);

  await db.schema.createIndex('ambassador_organizations_org').on('ambassador_organizations').columns(['organization_id', 'ambassador_user_id']).execute();

  // Consented access: a household (its head's account) lets one organisation's ambassadors act for it.
  await db.schema
    .createTable('access_grants')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('requested_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'granted', 'revoked', 'expired')`))
    .addColumn('channel', 'text', (c) => c.check(sql`channel in ('email', 'sms')`))
    .addColumn('period_days', 'integer', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('pending_until', 'timestamptz', (c) => c.notNull())
    .addColumn('granted_at', 'timestamptz')
    .addColumn('granted_via', 'text', (c) => c.check(sql`granted_via in ('settings', 'code')`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('ended_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // At most one open request or grant per household and organisation.
  await sql`create unique index access_grants_open on access_grants (user_id, organization_id) where status in ('pending', 'granted')`.execute(db);
  await db.schema.createIndex('access_grants_user').on('access_grants').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('access_grants_org_status').on('access_grants').columns(['organization_id', 'status', 'user_id']).execute();
  // For the expiry timer and its notice (the lead's workflow) and any sweep.
  await sql`create index access_grants_expiring on access_grants (expires_at) where status = 'granted'`.execute(db);

  // The household's audit list (every action taken for it) and the admin's, newest first.
  await db.schema.createIndex('impersonation_audit_acting').on('impersonation_audit').columns(['acting_user_id', 'id']).execute();
  await db.schema.createIndex('impersonation_audit_real_id').on('impersonation_audit').columns(['real_user_id', 'id']).execute();

  // Admin changes to users (role, deactivation, reactivation, verification resent, organisation).
  await db.schema
    .createTable('user_admin_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('actor_user_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('user_admin_audit_user').on('user_admin_audit').columns(['user_id', 'id']).execute();

  // A manager or ambassador with no organisation applies to join one; an admin decides.
  await db.schema
    .createTable('organization_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'uuid', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'approved', 'declined')`))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('decided_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index organization_requests_open on organization_requests (user_id, organization_id) where status = 'pending'`.execute(db);
  await db.schema.createIndex('organization_requests_status').on('organization_requests').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('organization_requests_user').on('organization_requests').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['organization_requests', 'user_admin_audit', 'access_grants']) await db.schema.dropTable(table).ifExists().execute();
  for (const index of ['impersonation_audit_acting', 'impersonation_audit_real_id', 'ambassador_organizations_org', 'users_org_created', 'users_org_name', 'users_org_username', 'users_org_email', 'users_org_status', 'users_created', 'users_name', 'users_role_created', 'users_status_created', 'users_search', 'organizations_name', 'organizations_kind_name', 'organizations_created', 'organizations_search']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.alterTable('organizations').dropColumn('kind').dropColumn('access_period_days').dropColumn('updated_at').execute();
  await sql`drop extension if exists pg_trgm`.execute(db);
}
