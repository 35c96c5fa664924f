import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// The lottery's rank and log-number lookups read only ranked applications (each asks for
// `lottery_rank > n` or `lottery_rank is not null`), so their indexes leave the unranked rows out:
// a first-come application, and a lottery one before its draw, no longer writes an entry in either.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index applications_lottery_rank`.execute(db);
  await sql`create index applications_lottery_rank on applications (opportunity_id, lottery_rank, id) where lottery_rank is not null`.execute(db);
  await sql`drop index applications_opportunity_log`.execute(db);
  await sql`create index applications_opportunity_log on applications (opportunity_id, log_number) where lottery_rank is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index applications_lottery_rank`.execute(db);
  await sql`create index applications_lottery_rank on applications (opportunity_id, lottery_rank, id)`.execute(db);
  await sql`drop index applications_opportunity_log`.execute(db);
  await sql`create index applications_opportunity_log on applications (opportunity_id, log_number)`.execute(db);
}
