import type { Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// The request holding an Idempotency-Key's lease owns its row by a random token: renewal, the
// kept answer and the release match it, so a stalled first request cannot delete or overwrite the
// answer of the retry that took its expired lease.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotent_requests').addColumn('lease_token', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotent_requests').dropColumn('lease_token').execute();
}
