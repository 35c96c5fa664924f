import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// A ranked household's place on the waitlist: active, inactive (did not confirm its interest; passed
// over, rank kept) or removed, since when and why (a public reason code), the unit sizes it declined,
// and its last and next check-in. The invitation query reads the active ones in rank order, so the
// index leads with the state.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table applications
    add column waitlist_state text not null default 'active' check (waitlist_state in ('active', 'inactive', 'removed')),
    add column waitlist_state_at timestamptz,
    add column waitlist_state_reason text,
    add column declined_bedroom_types jsonb not null default '[]'::jsonb,
    add column waitlist_confirmed_at timestamptz,
    add column waitlist_next_check_in_at timestamptz`.execute(db);
  await sql`alter table opportunities add column waitlist_check_in_months integer not null default 6 check (waitlist_check_in_months between 1 and 24)`.execute(db);
  await sql`create index applications_waitlist_state on applications (opportunity_id, waitlist_state, lottery_rank) where lottery_rank is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index applications_waitlist_state`.execute(db);
  await sql`alter table opportunities drop column waitlist_check_in_months`.execute(db);
  await sql`alter table applications
    drop column waitlist_state, drop column waitlist_state_at, drop column waitlist_state_reason,
    drop column declined_bedroom_types, drop column waitlist_confirmed_at, drop column waitlist_next_check_in_at`.execute(db);
}
