import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// A claim code lasts 90 days (a reissued one starts over); the placeholder head a claim replaced is
// kept on the household, so a notice a running case still addresses to it reaches the new head; a
// mailed letter that printed a claim code has its PDF purged once mailed.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table households add column claim_code_expires_at timestamptz`.execute(db);
  await sql`alter table households add column claimed_from_user_id uuid references users(id) on delete set null`.execute(db);
  await sql`create index households_claimed_from_user on households (claimed_from_user_id) where claimed_from_user_id is not null`.execute(db);
  // The codes issued before codes expired count from their household's entry.
  await sql`update households set claim_code_expires_at = created_at + interval '90 days' where claim_code_hash is not null`.execute(db);
  await sql`alter table mailed_letters add column purged_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table mailed_letters drop column purged_at`.execute(db);
  await sql`drop index households_claimed_from_user`.execute(db);
  await sql`alter table households drop column claimed_from_user_id`.execute(db);
  await sql`alter table households drop column claim_code_expires_at`.execute(db);
}
