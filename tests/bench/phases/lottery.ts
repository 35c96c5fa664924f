/**
 * The lottery at full size: the draw end to end over HTTP (from the manager's Draw to
 * the lottery's view saying 'drawn'), then one InviteNext of N households, watched as the manager's
 * page would (the lottery view polled for its progress) until every invited household's lease-up
 * case has started and been projected; every request's latency counts toward the worst.
 */
import { sql } from 'kysely';
import type { LotteryView } from '../../../domain';
import type { Db } from '../../../infra/db/database';
import type { Api } from '../http';
import { since } from '../stats';

export interface DrawFigures {
  drawMs: number;
  entries: number;
  maxRequestMs: number;
  /** Requests answered with a server error (5xx) and asked again. */
  refused: number;
}

export interface InviteFigures {
  /** From InviteNext to the lottery's view counting every invitation. */
  invitedMs: number;
  /** From InviteNext to every invited case's row projected by its own workflow. */
  startedMs: number;
  invited: number;
  started: number;
  skipped: number;
  maxRequestMs: number;
  refused: number;
  /** What the manager saw while it ran: invited counts in the order polled (a sample). */
  progress: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The manager's lottery page: its view, asked again after a server error (counted, and the request's time still counts). */
async function view(api: Api, auth: string, lotteryId: string, worst: { ms: number; refused: number }): Promise<LotteryView> {
  for (let attempt = 0; ; attempt++) {
    const res = await api.call<LotteryView>('GET', `/api/OpportunityLottery/${lotteryId}`, auth);
    worst.ms = Math.max(worst.ms, res.ms);
    if (res.status === 200 && res.body?.data) return res.body.data;
    worst.refused++;
    if (res.status < 500 || attempt >= 20) throw new Error(`lottery view: ${res.status} ${res.body?.message ?? ''}`);
    await sleep(500);
  }
}

/** Waits until the lottery's read model says its deadline has closed applications and its list is frozen (ready to draw). */
export async function waitForClosed(db: Db, lotteryId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.selectFrom('opportunity_lotteries').select(['stage', 'view']).where('opportunity_id', '=', lotteryId).executeTakeFirst();
    if (row?.stage === 'closed' && (row.view as { frozen?: unknown } | null)?.frozen) return;
    if (Date.now() > deadline) throw new Error(`the lottery did not close (stage ${row?.stage ?? 'none'})`);
    await sleep(200);
  }
}

export async function draw(api: Api, auth: string, lotteryId: string, timeoutMs = 600_000): Promise<DrawFigures> {
  const worst = { ms: 0, refused: 0 };
  const start = performance.now();
  const res = await api.call('POST', `/api/OpportunityLottery/${lotteryId}/Draw`, auth, { publicValue: '07 19 23 31 42 witnessed' });
  worst.ms = res.ms;
  if (res.status !== 200) throw new Error(`Draw: ${res.status} ${res.body?.message ?? ''}`);
  for (;;) {
    const v = await view(api, auth, lotteryId, worst);
    if (v.stage === 'drawn') return { drawMs: since(start), entries: v.draw?.entries ?? 0, maxRequestMs: worst.ms, refused: worst.refused };
    if (since(start) > timeoutMs) throw new Error(`the draw did not finish in ${timeoutMs / 1000}s (stage ${v.stage})`);
    await sleep(100);
  }
}

export async function invite(api: Api, db: Db, auth: string, lotteryId: string, count: number, timeoutMs = 600_000): Promise<InviteFigures> {
  const worst = { ms: 0, refused: 0 };
  const progress: number[] = [];
  const start = performance.now();
  const res = await api.call('POST', `/api/OpportunityLottery/${lotteryId}/InviteNext`, auth, { count });
  worst.ms = res.ms;
  if (res.status !== 200) throw new Error(`InviteNext: ${res.status} ${res.body?.message ?? ''}`);
  let invitedMs: number;
  let v: LotteryView;
  for (;;) {
    v = await view(api, auth, lotteryId, worst);
    progress.push(v.invited);
    if (v.invited + v.skipped >= count || v.waitlist === 0) {
      invitedMs = since(start);
      break;
    }
    if (since(start) > timeoutMs) throw new Error(`invitations stalled at ${v.invited} of ${count}`);
    await sleep(250);
  }
  // Each invited case writes its own row (state version 1 or later) once its workflow has started.
  let started: number;
  for (;;) {
    const row = await sql<{ n: string }>`
      select count(*) as n from applications where opportunity_id = ${lotteryId} and invited_at is not null and state_version > 0`.execute(db);
    started = Number(row.rows[0]?.n ?? 0);
    if (started >= v.invited || since(start) > timeoutMs) break;
    progress.push((await view(api, auth, lotteryId, worst)).invited);
    await sleep(250);
  }
  const step = Math.max(1, Math.ceil(progress.length / 12));
  return {
    invitedMs,
    startedMs: since(start),
    invited: v.invited,
    started,
    skipped: v.skipped,
    maxRequestMs: worst.ms,
    refused: worst.refused,
    progress: progress.filter((_, i) => i % step === 0 || i === progress.length - 1),
  };
}
