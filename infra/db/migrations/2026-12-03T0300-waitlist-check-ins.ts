import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// One row per household and check-in cycle of a waitlist: when it was asked, reminded and answered,
// and how. The links of the notices ("keep my place", "restore my place") work signed out: each is
// kept as the SHA-256 of its token (the token itself is only in the notice) with its expiry. And one
// row per change of a household's place (inactive, restored, removed), with its public reason and,
// for a manager's restore, the manager's note: the manager's view shows the date of each change.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table waitlist_check_ins (
    id uuid primary key default gen_random_uuid(),
    application_id uuid not null references applications(id) on delete cascade,
    opportunity_id uuid not null references opportunities(id) on delete cascade,
    cycle integer not null,
    asked_at timestamptz not null,
    reminded_at timestamptz,
    answered_at timestamptz,
    answered_by text check (answered_by in ('link', 'account', 'sms', 'letter', 'restore')),
    unique (application_id, cycle)
  )`.execute(db);
  // The open check-in of a household (its latest cycle), and a cycle's unanswered ones in rank order.
  await sql`create index waitlist_check_ins_open on waitlist_check_ins (opportunity_id, cycle) where answered_at is null`.execute(db);
  // A deleted opportunity's cascade and the per-waitlist reads find the rows by opportunity, answered or not.
  await sql`create index waitlist_check_ins_opportunity on waitlist_check_ins (opportunity_id, cycle)`.execute(db);
  await sql`create table waitlist_links (
    token_hash text primary key,
    application_id uuid not null references applications(id) on delete cascade,
    issued_at timestamptz not null,
    expires_at timestamptz not null
  )`.execute(db);
  await sql`create index waitlist_links_application on waitlist_links (application_id)`.execute(db);
  await sql`create table waitlist_changes (
    id bigserial primary key,
    application_id uuid not null references applications(id) on delete cascade,
    at timestamptz not null,
    state text not null check (state in ('active', 'inactive', 'removed')),
    reason text not null,
    note text,
    by_user_id uuid references users(id) on delete set null
  )`.execute(db);
  await sql`create index waitlist_changes_application on waitlist_changes (application_id, at)`.execute(db);
  // A deleted user's `set null` finds the changes they made.
  await sql`create index waitlist_changes_by_user on waitlist_changes (by_user_id) where by_user_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table waitlist_changes`.execute(db);
  await sql`drop table waitlist_links`.execute(db);
  await sql`drop table waitlist_check_ins`.execute(db);
}
