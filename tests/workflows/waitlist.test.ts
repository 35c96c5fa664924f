import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WaitlistState } from '../../domain/waitlist';
import { addMonths, checkInCycleDates, waitlistWorkflowId } from '../../domain/waitlist-check-ins';
import { HOUR, MINUTE } from '../../domain/time';
import { confirmInterest, restorePlace, standings, waitlistPage } from '../../infra/db/repositories/waitlist';
import { waitlistProgress, type WaitlistSweep } from '../../workflows/waitlist.messages';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { recordHistory } from '../helpers/histories';
import { eventually } from '../helpers/stack';

// The scale, 10,000 households, takes about 560 s of a 2-core CI run, over what the whole of
// .ci/run may take beside the other suites; the suite runs 1,000 with the same answer pattern, and
// `WAITLIST_AT_SCALE=1 node tests/run.mjs tests/workflows/waitlist.test.ts` runs the 10,000.
const HOUSEHOLDS = process.env.WAITLIST_AT_SCALE ? 10_000 : 1_000;
const MONTHS = 6;

/** A small seeded generator (mulberry32): the same answers on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Answer = 'confirm' | 'late' | 'restore' | 'never';
interface Expected {
  id: string;
  householdId: string;
  rank: number;
  state: WaitlistState;
  /** The cycle's day the state last changed (by the sweep: between that day and the hour after it). */
  changedAfter: number | null;
  confirmedAt: number | null;
}

/** Runs `work` over `items` a few at a time (the answers of thousands of households). */
async function inBatches<T>(items: T[], work: (item: T) => Promise<void>, width = 16): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

describe('waitlist check-ins (time skipping)', () => {
  let ts: Awaited<ReturnType<typeof startTimeSkippingEnv>>;
  beforeAll(async () => {
    ts = await startTimeSkippingEnv();
  }, 180_000);
  afterAll(() => ts?.close());

  /** A drawn waitlist written straight into the tables: households ranked 1..n in a shuffled order. */
  async function insertWaitlist(n: number, drawnAt: number, random: () => number) {
    const tag = randomUUID().slice(0, 8);
    const org = await ts.db.insertInto('organizations').values({ name: `Waitlist org ${tag}`, slug: `waitlist-${tag}` }).returning('id').executeTakeFirstOrThrow();
    const opportunity = await ts.db
      .insertInto('opportunities')
      .values({ organization_id: org.id, name: `Waitlist homes ${tag}`, kind: 'rental', address: '1 Wait Street', amenities: '[]', requirements: '[]', income_ranges: '[]', lottery_end_date: '2026-11-01', published: true, selection: 'lottery', waitlist_check_in_months: MONTHS })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ranks = Array.from({ length: n }, (_, i) => i + 1);
    for (let i = ranks.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ranks[i], ranks[j]] = [ranks[j]!, ranks[i]!];
    }
    const expected: Expected[] = [];
    for (let from = 0; from < n; from += 2_000) {
      const size = Math.min(2_000, n - from);
      const users = await ts.db
        .insertInto('users')
        .values(Array.from({ length: size }, (_, i) => ({ username: `wl-${tag}-${from + i}`, email: `wl-${tag}-${from + i}@example.test`, first_name: 'Wait', last_name: `L${from + i}`, role: 'User' as const, password_hash: 'x' })))
        .returning('id')
        .execute();
      const homes = await ts.db.insertInto('households').values(users.map((u) => ({ head_user_id: u.id }))).returning(['id', 'head_user_id']).execute();
      const rows = homes.map((h, i) => {
        const id = randomUUID();
        const rank = ranks[from + i]!;
        expected.push({ id, householdId: h.id, rank, state: 'active', changedAfter: null, confirmedAt: null });
        return {
          id,
          workflow_id: `lease-up-${id}`,
          household_id: h.id,
          opportunity_id: opportunity.id,
          organization_id: org.id,
          applicant_user_id: h.head_user_id,
          log_number: `WL-${tag}-${from + i}`,
          status: 'waitlisted' as const,
          current_step: 'submitted' as const,
          pending_tasks: '[]',
          household_size: 2,
          household_income: 40_000,
          applied_at: new Date(drawnAt),
          state_updated_at: new Date(drawnAt),
          state_version: 1,
          lottery_groups: '[]',
          lottery_rank: rank,
          lottery_group_positions: '{}',
        };
      });
      await ts.db.insertInto('applications').values(rows).execute();
    }
    return { opportunityId: opportunity.id, expected };
  }

  it('runs one cycle of a small waitlist to its next run, its history kept for the replay check', async () => {
    const t0 = await ts.env.currentTimeMs();
    const { opportunityId, expected } = await insertWaitlist(6, t0, seeded(7));
    const handle = await ts.client.workflow.start('waitlist', { workflowId: waitlistWorkflowId(opportunityId), taskQueue: ts.taskQueue, args: [{ opportunityId, drawnAt: new Date(t0).toISOString() }] });
    const dates = checkInCycleDates(addMonths(t0, MONTHS), MONTHS);
    await ts.env.sleep(dates.askAt + MINUTE - t0);
    await eventually(async () => (await ts.db.selectFrom('waitlist_check_ins').select('id').where('opportunity_id', '=', opportunityId).execute()).length === 6);
    const first = expected.find((e) => e.rank === 1)!;
    expect(await confirmInterest(ts.db, { applicationId: first.id, now: await ts.env.currentTimeMs(), channel: 'link' })).toBe('confirmed');
    await ts.env.sleep(dates.removeAt + MINUTE - (await ts.env.currentTimeMs()));
    const firstRun = ts.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
    await eventually(async () => (await firstRun.describe()).status.name === 'CONTINUED_AS_NEW');
    const states = await ts.db.selectFrom('applications').select(['lottery_rank', 'waitlist_state']).where('opportunity_id', '=', opportunityId).orderBy('lottery_rank').execute();
    expect(states.map((r) => r.waitlist_state)).toEqual(['active', 'removed', 'removed', 'removed', 'removed', 'removed']);
    await recordHistory('waitlist-one-cycle', firstRun);
    await handle.terminate('test over');
  });

  it(`keeps ${HOUSEHOLDS.toLocaleString('en-US')} households current through two years of check-ins, each state and position as computed here`, async () => {
    const random = seeded(20261203);
    const t0 = await ts.env.currentTimeMs();
    const { opportunityId, expected } = await insertWaitlist(HOUSEHOLDS, t0, random);
    const byId = new Map(expected.map((e) => [e.id, e]));
    const handle = await ts.client.workflow.start('waitlist', { workflowId: waitlistWorkflowId(opportunityId), taskQueue: ts.taskQueue, args: [{ opportunityId, drawnAt: new Date(t0).toISOString() }] });

    // Just past each day of the cycle: the server skips time while a sweep's activity runs, and a
    // skip shorter than the activity's timeout cannot time it out.
    const skipTo = async (at: number) => {
      const now = await ts.env.currentTimeMs();
      if (at > now) await ts.env.sleep(at - now);
    };
    /** Waits until the workflow reports the sweep of the cycle done, and answers how many it touched. */
    const swept = async (cycle: number, sweep: WaitlistSweep): Promise<number> => {
      let last: unknown = null;
      for (let i = 0; i < 3_000; i++) {
        const p = await ts.client.workflow
          .getHandle(handle.workflowId)
          .query(waitlistProgress)
          .catch((error: unknown) => ({ error: String(error) }));
        last = p;
        const done = !('done' in p) ? undefined : p.cycle === cycle ? p.done.find((d) => d.sweep === sweep) : p.previous?.cycle === cycle ? p.previous.done.find((d) => d.sweep === sweep) : undefined;
        if (done) return done.count;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`cycle ${cycle} never finished its ${sweep} sweep: ${JSON.stringify(last)} at ${await ts.env.currentTimeMs()}`);
    };
    /** Every household's state and dates, and every active position, against the expectation. */
    const check = async (label: string) => {
      const rows = await ts.db.selectFrom('applications').select(['id', 'waitlist_state', 'waitlist_state_at', 'waitlist_confirmed_at']).where('opportunity_id', '=', opportunityId).execute();
      const wrong: string[] = [];
      for (const r of rows) {
        const e = byId.get(r.id)!;
        const at = r.waitlist_state_at ? new Date(r.waitlist_state_at).getTime() : null;
        const changedOk = e.changedAfter === null ? at === null : at !== null && at >= e.changedAfter && at < e.changedAfter + HOUR;
        const confirmed = r.waitlist_confirmed_at ? new Date(r.waitlist_confirmed_at).getTime() : null;
        if (r.waitlist_state !== e.state || !changedOk || confirmed !== e.confirmedAt) wrong.push(`${e.rank}: ${r.waitlist_state}@${at} confirmed ${confirmed}, expected ${e.state}@${e.changedAfter} confirmed ${e.confirmedAt}`);
      }
      expect(wrong.slice(0, 5), `${label}: ${wrong.length} households differ`).toEqual([]);
      // The manager's view, page by page: the active households in rank order are exactly those expected.
      const shown: string[] = [];
      let after = 0;
      for (;;) {
        const page = await waitlistPage(ts.db, { opportunityId, state: 'active', after, limit: 500, now: await ts.env.currentTimeMs() });
        shown.push(...page.rows.map((r) => r.applicationId));
        if (page.next === null) break;
        after = page.next;
      }
      const activeInOrder = expected.filter((e) => e.state === 'active').sort((a, b) => a.rank - b.rank);
      expect(shown, label).toEqual(activeInOrder.map((e) => e.id));
      // "Where I stand" of a sample of households: the position now among active households.
      const now = await ts.env.currentTimeMs();
      for (let i = 0; i < 25; i++) {
        const e = expected[Math.floor(random() * expected.length)]!;
        const [standing] = await standings(ts.db, e.householdId, now);
        const position = e.state === 'active' ? activeInOrder.findIndex((a) => a.id === e.id) + 1 : null;
        expect({ rank: standing?.rank, state: standing?.state, position: standing?.activePosition, total: standing?.activeTotal }, `${label} rank ${e.rank}`).toEqual({
          rank: e.rank,
          state: e.state,
          position,
          total: activeInOrder.length,
        });
      }
    };
    const confirm = (list: Expected[]) =>
      inBatches(list, async (e) => {
        const now = await ts.env.currentTimeMs();
        expect(await confirmInterest(ts.db, { applicationId: e.id, now, channel: 'link' })).toBe('confirmed');
        e.confirmedAt = now;
      });

    let askAt = addMonths(t0, MONTHS);
    let cycle = 1;
    const counts: Record<Answer, number> = { confirm: 0, late: 0, restore: 0, never: 0 };
    for (; askAt <= addMonths(t0, 24); cycle++) {
      const dates = checkInCycleDates(askAt, MONTHS);
      const asked = expected.filter((e) => e.state === 'active');
      await skipTo(askAt + MINUTE);
      expect(await swept(cycle, 'ask')).toBe(asked.length);
      const answer = new Map<Answer, Expected[]>([['confirm', []], ['late', []], ['restore', []], ['never', []]]);
      for (const e of asked) {
        const r = random();
        const a: Answer = r < 0.55 ? 'confirm' : r < 0.75 ? 'late' : r < 0.9 ? 'restore' : 'never';
        answer.get(a)!.push(e);
        counts[a] += 1;
      }
      await confirm(answer.get('confirm')!);
      await check(`cycle ${cycle} asked`);

      await skipTo(dates.remindAt + MINUTE);
      expect(await swept(cycle, 'remind')).toBe(asked.length - answer.get('confirm')!.length);
      await confirm(answer.get('late')!);

      await skipTo(dates.inactiveAt + MINUTE);
      const silent = [...answer.get('restore')!, ...answer.get('never')!];
      expect(await swept(cycle, 'deactivate')).toBe(silent.length);
      for (const e of silent) {
        e.state = 'inactive';
        e.changedAfter = dates.inactiveAt;
      }
      // Too late to confirm: the household is told to restore its place instead.
      if (silent[0]) expect(await confirmInterest(ts.db, { applicationId: silent[0].id, now: await ts.env.currentTimeMs(), channel: 'link' })).toBe('inactive');
      await check(`cycle ${cycle} inactive`);
      await inBatches(answer.get('restore')!, async (e) => {
        const now = await ts.env.currentTimeMs();
        expect(await restorePlace(ts.db, { applicationId: e.id, now, by: { role: 'household' } })).toBe('restored');
        e.state = 'active';
        e.changedAfter = now;
        e.confirmedAt = now;
      });

      await skipTo(dates.removeAt + MINUTE);
      expect(await swept(cycle, 'remove')).toBe(answer.get('never')!.length);
      for (const e of answer.get('never')!) {
        e.state = 'removed';
        e.changedAfter = dates.removeAt;
      }
      // After the restore window, only a manager can bring a household back.
      const late = answer.get('never')![0];
      if (late) expect(await restorePlace(ts.db, { applicationId: late.id, now: await ts.env.currentTimeMs(), by: { role: 'household' } })).toBe('not_restorable');
      await check(`cycle ${cycle} removed`);
      askAt = dates.nextAskAt;
    }
    // Two years of six-monthly check-ins: four cycles, every answer pattern met many times.
    expect(cycle - 1).toBe(4);
    for (const a of ['confirm', 'late', 'restore', 'never'] as const) expect(counts[a]).toBeGreaterThan(100);
    // Each household of this waitlist was told once of each change (the small waitlist above shares the database).
    const ours = new Set(expected.map((e) => e.id));
    const told = async (change: string) =>
      (await ts.db.selectFrom('notification_outbox').select('dedupe_key').where('dedupe_key', 'like', `waitlist:%:${change}`).execute()).filter((r) => ours.has(r.dedupe_key!.split(':')[1]!)).length;
    expect(await told('inactive')).toBe(counts.restore + counts.never);
    expect(await told('removed')).toBe(counts.never);
  }, 1_800_000);
});
