import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/**
 * Sign-in protection shared by every API replica:
 * - `rate_limit_hits`: the counters of @fastify/rate-limit's PostgreSQL store (per address limits);
 * - `auth_throttles`: failures per account and per account+address pair, with the time until which
 *   the next try is refused (growing delays) and when the owner was last told;
 * - `known_devices`: devices that signed in before (a hashed device token), which keep signing in
 *   while strangers are throttled.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_hits_expires').on('rate_limit_hits').column('expires_at').execute();

  await db.schema
    .createTable('auth_throttles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_failed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_failed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('blocked_until', 'timestamptz')
    .addColumn('notified_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('auth_throttles_last_failed').on('auth_throttles').column('last_failed_at').execute();

  await db.schema
    .createTable('known_devices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('known_devices_user').on('known_devices').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('known_devices').execute();
  await db.schema.dropTable('auth_throttles').execute();
  await db.schema.dropTable('rate_limit_hits').execute();
}
