import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_IN_LINE_TASKS, type PlaceRelease } from '../../domain';
import { openLottery } from '../../api/services/lottery';
import { readInvitationLog } from '../../infra/db/repositories/invitation-log';
import { verifyLottery } from '../../infra/lottery/verify';
import { recordHistory } from '../helpers/histories';
import { DAY, startLotteryEnv } from '../helpers/lottery-env';

type Env = Awaited<ReturnType<typeof startLotteryEnv>>;
type Lottery = ReturnType<Env['lottery']>;

const HOUSEHOLDS = 24;
const FIRST_BATCH = 8;
const SETTINGS = { offerExpiryDays: 3, appealWindowDays: 5 };

/**
 * Next in line through the real lease-up path, on a time-skipping server: each
 * way a household gives its place back (offer declined, offer expired, withdrawal, rejection final
 * when the appeal window passes or the appeal is denied) invites exactly one next household, the
 * best-ranked one waiting, and the manager's inbox says why; two at once invite two.
 */
describe.sequential('lottery: next in line (time skipping)', () => {
  let t: Env;
  let lottery: Lottery;
  let opportunityId: string;
  let units: { id: string; unit_number: string; bedroom_type: string; address: string }[];
  /** Releasing applications not used yet, best-ranked first. */
  let cases: string[];
  const releases: { applicationId: string; why: PlaceRelease }[] = [];

  beforeAll(async () => {
    t = await startLotteryEnv();
    ({ id: opportunityId } = await t.createOpportunity({ units: 2, deadlineInDays: 1, settings: SETTINGS }));
    await t.ts.db.updateTable('opportunities').set({ published: true }).where('id', '=', opportunityId).execute();
    await openLottery(t.deps, opportunityId);
    await t.addApplications(opportunityId, HOUSEHOLDS);
    lottery = t.lottery(opportunityId);
    units = await t.ts.db.selectFrom('units').select(['id', 'unit_number', 'bedroom_type', 'address']).where('opportunity_id', '=', opportunityId).orderBy('unit_number').execute();
    await t.ts.env.sleep(3 * DAY);
    await lottery.until((v) => v.stage === 'closed' && v.frozen !== null, 'applications closed and the list frozen');
    await lottery.send('Draw', { publicValue: 'next in line 4-8-15' });
    await lottery.until((v) => v.stage === 'drawn', 'drawn');
    await lottery.send('InviteNext', { count: FIRST_BATCH });
    await lottery.until((v) => v.invited === FIRST_BATCH && v.pendingInvitations === 0, 'first batch invited');
    cases = (await lottery.invited()).map((r) => r.id);
    expect(cases).toHaveLength(FIRST_BATCH);
  }, 240_000);
  afterAll(() => t?.close());

  /** Runs `release` on the next unused invited case(s) and checks exactly one next household per release is invited, best-ranked first. */
  async function releasesInvite(whys: PlaceRelease[], release: (cases: string[]) => Promise<unknown>) {
    const before = await lottery.view();
    const waiting = (await lottery.rows()).filter((r) => r.status === 'waitlisted');
    const used = cases.splice(0, whys.length);
    await release(used);
    whys.forEach((why, i) => releases.push({ applicationId: used[i]!, why }));
    const after = await lottery.until((v) => v.invited === before.invited + whys.length && v.pendingInvitations === 0, `${whys.join(' and ')} invite ${whys.length}`);
    expect(after.waitlist).toBe(before.waitlist! - whys.length);
    // The best-ranked households waiting were invited: their lease-up cases start at documentation review.
    const next = waiting.slice(0, whys.length);
    const rows = await lottery.rows();
    for (const n of next) expect(rows.find((r) => r.id === n.id)?.invited_at).not.toBeNull();
    expect(rows.filter((r) => r.status === 'waitlisted').map((r) => r.id)).toEqual(waiting.slice(whys.length).map((r) => r.id));
    for (const n of next) expect((await t.leaseUpCase(n.id).view()).currentStep).toBe('documentation_review');
    // The manager's inbox says why each was invited (two at once: each its own reason).
    const inbox = await t.until(
      () =>
        t.ts.db
          .selectFrom('manager_tasks')
          .select(['case_id', 'action'])
          .where('case_kind', '=', 'lease_up')
          .where('case_id', 'in', next.map((n) => n.id))
          .where('action', 'in', Object.values(NEXT_IN_LINE_TASKS))
          .execute(),
      (tasks) => tasks.length === next.length,
      'inbox entries of the next in line',
    );
    expect(inbox.map((task) => task.action).sort()).toEqual(whys.map((why) => NEXT_IN_LINE_TASKS[why]).sort());
    return next;
  }

  it('an offer declined invites exactly one next household; the same household leaving later invites nobody more', async () => {
    const [next] = await releasesInvite(['offer_declined'], async ([id]) => {
      const c = t.leaseUpCase(id!);
      await c.toUnitOffer(units[0]!);
      const view = await c.act('RespondToUnitOffer', { offerId: 'offer-1', accept: false });
      expect(view.offers[0]!.status).toBe('declined');
    });
    // The household gave its place back once: withdrawing afterwards invites nobody else.
    const declined = releases.at(-1)!.applicationId;
    const { invited } = await lottery.view();
    await t.leaseUpCase(declined).act('Withdraw');
    // Once its run has completed it has sent whatever it would send (not awaiting its result: that would let the server skip time).
    await t.until(() => t.leaseUpCase(declined).handle.describe(), (d) => d.status.name === 'COMPLETED', 'withdrawn case completed');
    expect((await lottery.view()).invited).toBe(invited);
    // The next household's entry leaves the inbox once its documentation review moves on.
    const c = t.leaseUpCase(next!.id);
    await c.act('SubmitProfile');
    await c.act('MarkAsComplete');
    const tasks = await t.until(
      () => t.ts.db.selectFrom('manager_tasks').select('action').where('case_id', '=', next!.id).execute(),
      (rows) => !rows.some((r) => r.action === NEXT_IN_LINE_TASKS.offer_declined),
      'the entry closed',
    );
    expect(tasks.map((r) => r.action)).toContain('ProceedToAppointmentScheduling');
  });

  it('a withdrawal invites exactly one next household', async () => {
    await releasesInvite(['withdrawn'], async ([id]) => {
      expect((await t.leaseUpCase(id!).act('Withdraw')).status).toBe('withdrawn');
    });
  });

  it('an appeal denied makes the rejection final and invites exactly one next household; the rejection alone invites nobody', async () => {
    await releasesInvite(['rejected'], async ([id]) => {
      const c = t.leaseUpCase(id!);
      const { invited } = await lottery.view();
      await c.act('SubmitProfile');
      await c.act('MarkAsComplete');
      await c.act('RejectApplication', { reason: 'Income above the limit' });
      await c.act('Appeal', { reason: 'A job ended last month' });
      // Rejected, then appealed: the place is still the household's.
      expect((await lottery.view()).invited).toBe(invited);
      expect((await c.act('DenyAppeal', { reason: 'Income still above the limit' })).status).toBe('closed');
    });
  });

  it('an offer that expires invites exactly one next household, and is logged as no answer', async () => {
    let expired = '';
    await releasesInvite(['offer_expired'], async ([id]) => {
      const c = t.leaseUpCase(id!);
      const offered = await c.toUnitOffer(units[1]!);
      expect(offered.offers[0]!.status).toBe('open');
      await t.ts.env.sleep((SETTINGS.offerExpiryDays + 1) * DAY);
      await t.until(() => c.view(), (v) => v.offers[0]?.status === 'expired', 'offer expired');
      expired = id!;
    });
    // The invitation log records the unanswered offer, and the next invitation as the next in line
    // after a released place; the log verifies against the published ranks.
    const logNumber = (await t.ts.db.selectFrom('applications').select('log_number').where('id', '=', expired).executeTakeFirstOrThrow()).log_number;
    const log = await readInvitationLog(t.ts.db, opportunityId, 0, 1000);
    expect(log.filter((l) => l.reason === 'no_answer').map((l) => [l.logNumber, l.event])).toEqual([[logNumber, 'passed_over']]);
    expect(log.filter((l) => l.reason === 'next_after_release')).toHaveLength(releases.length);
    const verified = await verifyLottery(t.ts.db, opportunityId);
    expect(verified.problems).toEqual([]);
    expect(verified.invitationLog).toMatchObject({ chainMatches: true, headMatches: true, outOfOrderCount: 0 });
  });

  it('a rejection becomes final when the appeal window passes and invites exactly one next household', async () => {
    await releasesInvite(['rejected'], async ([id]) => {
      const c = t.leaseUpCase(id!);
      await c.act('SubmitProfile');
      await c.act('MarkAsComplete');
      const rejected = await c.act('RejectApplication', { reason: 'Documents do not match' });
      expect(rejected.status).toBe('rejected');
      await t.ts.env.sleep((SETTINGS.appealWindowDays + 1) * DAY);
      await t.until(() => c.view(), (v) => v.status === 'closed', 'appeal window passed');
    });
  });

  it('two places given back at once invite exactly two households, each once and for its own reason', async () => {
    const next = await releasesInvite(['offer_declined', 'withdrawn'], async ([declining, withdrawing]) => {
      const d = t.leaseUpCase(declining!);
      await d.toUnitOffer(units[0]!);
      await Promise.all([d.act('RespondToUnitOffer', { offerId: 'offer-1', accept: false }), t.leaseUpCase(withdrawing!).act('Withdraw')]);
    });
    expect(new Set(next.map((n) => n.id)).size).toBe(2);
  });

  it('each place given back invited once in all (the batches name each release once), and the replay history is kept', async () => {
    const v = await lottery.view();
    expect(v.invited).toBe(FIRST_BATCH + releases.length);
    const rows = await lottery.rows();
    const logOf = new Map(rows.map((r) => [r.id, r.log_number]));
    for (const r of releases) {
      const named = v.batches.filter((b) => b.because.split('; ').includes(`${r.why} ${logOf.get(r.applicationId)}`));
      expect(named, `${r.why} of ${r.applicationId}`).toHaveLength(1);
    }
    // A late repeat of a release changes nothing.
    await lottery.signal('UnitReleased', { applicationId: releases[0]!.applicationId, why: releases[0]!.why });
    expect((await lottery.send('PauseInvitations')).invited).toBe(v.invited);
    expect((await lottery.send('Close', { reason: 'Test over' })).stage).toBe('closed_out');
    expect(await lottery.handle.result()).toBe('closed_out');
    await recordHistory('lottery-next-in-line', lottery.handle);
  });
});
