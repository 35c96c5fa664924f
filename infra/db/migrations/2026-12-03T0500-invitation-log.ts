import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.
// Each lottery's invitation log: one line per invitation and per pass-over, by log number and rank
// (no names), with a public reason code, chained by SHA-256 from the draw's result hash, the head
// published on the lottery row. Lines are never changed (an update is refused); the unique key
// makes a retried activity append a line once.
//
// Lotteries that invited before the log existed get their past written here, in rank order (the
// only order they ever invited in): each invited household, and before it those they skipped
// because no unit fitted, or that had withdrawn.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table lottery_invitation_log (
    opportunity_id uuid not null references opportunities (id) on delete cascade,
    seq integer not null check (seq > 0),
    application_id uuid not null,
    log_number text not null,
    rank integer not null,
    event text not null check (event in ('invited', 'passed_over')),
    reason text not null,
    unit_sizes jsonb not null default '[]'::jsonb,
    at timestamptz not null,
    dedupe_key text not null,
    hash text not null,
    primary key (opportunity_id, seq),
    unique (opportunity_id, dedupe_key)
  )`.execute(db);
  // The manager's ranked list reads each household's last pass-over.
  await sql`create index lottery_invitation_log_application on lottery_invitation_log (application_id, seq)`.execute(db);
  await sql`create function lottery_invitation_log_append_only() returns trigger language plpgsql as $$
    begin raise exception 'the invitation log is append-only'; end $$`.execute(db);
  await sql`create trigger lottery_invitation_log_append_only before update on lottery_invitation_log for each row execute function lottery_invitation_log_append_only()`.execute(db);
  await sql`alter table opportunity_lotteries
    add column invitation_log_head text,
    add column invitation_log_length integer not null default 0`.execute(db);

  const lotteries = await sql<{ opportunity_id: string; result_hash: string }>`
    select opportunity_id, result_hash from opportunity_lotteries where result_hash is not null`.execute(db);
  const now = new Date();
  for (const lottery of lotteries.rows) {
    const rows = await sql<{ id: string; log_number: string | null; lottery_rank: number; status: string; invited_at: Date | null }>`
      select id, log_number, lottery_rank, status, invited_at from applications
      where opportunity_id = ${lottery.opportunity_id} and lottery_rank is not null
        and lottery_rank <= (select max(lottery_rank) from applications where opportunity_id = ${lottery.opportunity_id} and invited_at is not null)
      order by lottery_rank, id`.execute(db);
    const units = await sql<{ bedroom_type: string }>`select distinct bedroom_type from units where opportunity_id = ${lottery.opportunity_id} order by bedroom_type`.execute(db);
    let head = lottery.result_hash;
    let seq = 0;
    for (const r of rows.rows) {
      const line =
        r.invited_at !== null
          ? { event: 'invited', reason: 'in_rank_order', unitSizes: [] as string[], at: r.invited_at, key: `invited:${r.id}` }
          : r.status === 'skipped'
            ? { event: 'passed_over', reason: 'household_does_not_fit', unitSizes: units.rows.map((u) => u.bedroom_type), at: now, key: `passed_over:${r.id}:household_does_not_fit` }
            : r.status === 'withdrawn'
              ? { event: 'passed_over', reason: 'withdrawn', unitSizes: [] as string[], at: now, key: `passed_over:${r.id}:withdrawn` }
              : null;
      if (!line) continue;
      seq += 1;
      const at = new Date(line.at).toISOString();
      const logNumber = r.log_number ?? r.id;
      head = sha256(`${head}\n${JSON.stringify([seq, logNumber, r.lottery_rank, line.event, line.reason, line.unitSizes, at])}`);
      await sql`insert into lottery_invitation_log (opportunity_id, seq, application_id, log_number, rank, event, reason, unit_sizes, at, dedupe_key, hash)
        values (${lottery.opportunity_id}, ${seq}, ${r.id}, ${logNumber}, ${r.lottery_rank}, ${line.event}, ${line.reason}, ${JSON.stringify(line.unitSizes)}::jsonb, ${at}, ${line.key}, ${head})`.execute(db);
    }
    if (seq > 0) await sql`update opportunity_lotteries set invitation_log_head = ${head}, invitation_log_length = ${seq} where opportunity_id = ${lottery.opportunity_id}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table opportunity_lotteries drop column invitation_log_head, drop column invitation_log_length`.execute(db);
  await sql`drop table lottery_invitation_log`.execute(db);
  await sql`drop function lottery_invitation_log_append_only()`.execute(db);
}
