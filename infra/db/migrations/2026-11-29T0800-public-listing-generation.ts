import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// The public opportunity pages are served from each API replica's memory (api/services/public-listing-cache.ts).
// Any write to what they show bumps one counter, by trigger, so no write path can forget to: each
// replica reads the counter at most once a second and drops its copies when it moved.

const SHOWN = ['opportunities', 'units', 'opportunity_lotteries'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('public_listing_generation')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into public_listing_generation (id, generation) values (1, 0)`.execute(db);
  await sql`
    create function bump_public_listing_generation() returns trigger language plpgsql as $$
    begin
      update public_listing_generation set generation = generation + 1 where id = 1;
      return null;
    end $$`.execute(db);
  for (const table of SHOWN) {
    await sql`create trigger ${sql.raw(`${table}_public_listing`)} after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function bump_public_listing_generation()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of SHOWN) await sql`drop trigger if exists ${sql.raw(`${table}_public_listing`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists bump_public_listing_generation()`.execute(db);
  await db.schema.dropTable('public_listing_generation').execute();
}
