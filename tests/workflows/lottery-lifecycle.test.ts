import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, applicationsCloseAt } from '../../domain';
import { apply } from '../../api/services/lease-up';
import { setPublished } from '../../api/services/opportunity-admin';
import { recordHistory } from '../helpers/histories';
import { startLotteryEnv } from '../helpers/lottery-env';

type Env = Awaited<ReturnType<typeof startLotteryEnv>>;

const APPLICANTS = 6;
const UNITS = 2;

/**
 * One lottery from draft to closed on a time-skipping server and through the
 * API's services where a person acts: draft (nobody can apply) → published (the seed committed,
 * accepting) → households apply → the deadline closes applications (a later application is refused
 * with the spec's 'Opportunity closed') → the list frozen and its hash published → drawn →
 * invitations → every unit leased → filled, the households not reached kept ranked as the waitlist
 * → closed by the manager.
 */
describe.sequential('lottery: the whole lifecycle (time skipping)', () => {
  let t: Env;
  beforeAll(async () => {
    t = await startLotteryEnv();
  }, 180_000);
  afterAll(() => t?.close());

  it('goes from draft to all units leased (filled) and closed, the rest kept as the waitlist', async () => {
    const { id: opportunityId, deadline } = await t.createOpportunity({ units: UNITS, deadlineInDays: 2 });
    const lottery = t.lottery(opportunityId);
    const households = await Promise.all(Array.from({ length: APPLICANTS + 1 }, () => t.household()));
    const sessionOf = (userId: string) => ({ userId, role: 'User' as const, realUserId: null });
    const applyAs = (h: { userId: string }) => apply(t.deps, sessionOf(h.userId), { opportunityId, householdSize: 2, householdIncome: 30_000, agreeToTerms: true });

    // Draft: not open to anyone, and no lottery runs yet.
    await expect(applyAs(households[0]!)).rejects.toMatchObject({ statusCode: 404 });
    expect(await t.ts.db.selectFrom('opportunity_lotteries').select('stage').where('opportunity_id', '=', opportunityId).executeTakeFirst()).toBeUndefined();

    // Published: the seed is committed (its SHA-256 public) and the lottery accepts applications.
    await setPublished(t.ts.db, t.managerUserId, opportunityId, true, t.deps);
    const accepting = await lottery.until((v) => v.stage === 'accepting', 'accepting');
    const stored = await t.ts.db.selectFrom('opportunity_lotteries').select(['seed_hash', 'seed_revealed']).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
    expect(accepting.seedHash).toBe(stored.seed_hash);
    expect(stored.seed_revealed).toBeNull();

    // Households apply: 'in lottery' with a log number, no case yet; one application per household.
    for (const h of households.slice(0, APPLICANTS)) await applyAs(h);
    await expect(applyAs(households[0]!)).rejects.toMatchObject({ code: 'alreadyApplied' });
    const applied = await lottery.rows();
    expect(applied.map((r) => r.status)).toEqual(Array(APPLICANTS).fill('in_lottery'));
    expect(applied.every((r) => /^LU-\d{6}$/.test(r.log_number ?? ''))).toBe(true);

    // The deadline passes: applications close (the workflow's timer, then its read model), and a late household is refused.
    await t.ts.env.sleep(Date.parse(applicationsCloseAt(deadline)) + 60_000 - (await t.ts.env.currentTimeMs()));
    await lottery.until((v) => v.stage === 'closed', 'applications closed');
    await t.until(() => t.ts.db.selectFrom('opportunity_lotteries').select('stage').where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow(), (r) => r.stage === 'closed', 'closed in the read model');
    await expect(applyAs(households[APPLICANTS]!)).rejects.toMatchObject({ statusCode: 409, code: 'opportunityClosed', message: MESSAGES.opportunityClosed });
    expect(MESSAGES.opportunityClosed).toBe('Opportunity closed');
    expect(await lottery.rows()).toHaveLength(APPLICANTS);
    // No mail grace period here: the list freezes as applications close, its hash published before the draw.
    const frozen = await lottery.until((v) => v.frozen !== null, 'the list frozen');
    expect(frozen.frozen?.entries).toBe(APPLICANTS);

    // Drawn: every application ranked and waitlisted.
    await lottery.send('Draw', { publicValue: 'lifecycle 11-22-33' });
    const drawn = await lottery.until((v) => v.stage === 'drawn', 'drawn');
    expect(drawn.waitlist).toBe(APPLICANTS);
    expect((await lottery.rows()).map((r) => [r.status, r.lottery_rank])).toEqual(Array.from({ length: APPLICANTS }, (_, i) => ['waitlisted', i + 1]));

    // One invitation per unit, in rank order: each household's lease-up case starts at documentation review.
    await lottery.send('InviteNext', { count: UNITS });
    await lottery.until((v) => v.invited === UNITS && v.pendingInvitations === 0, 'invited');
    const invited = await lottery.invited();
    expect(invited.map((r) => r.lottery_rank)).toEqual([1, 2]);
    // Each invited household is told once, in the batch that invited it.
    const told = await t.ts.db.selectFrom('notification_outbox').select('notice_key').where('template', '=', 'lottery-invitation').execute();
    expect(told.map((n) => n.notice_key).sort()).toEqual(invited.map((r) => `lease-up:${r.id}:invited`).sort());

    // Each invited household leases a unit; the last lease signed fills the lottery, which keeps its waitlist.
    const units = await t.ts.db.selectFrom('units').select(['id', 'unit_number', 'bedroom_type', 'address']).where('opportunity_id', '=', opportunityId).orderBy('unit_number').execute();
    for (const [i, row] of invited.entries()) {
      const c = t.leaseUpCase(row.id);
      expect((await c.view()).currentStep).toBe('documentation_review');
      await c.toUnitOffer(units[i]!);
      expect(await c.toLeaseSigned('offer-1')).toMatchObject({ status: 'ended', heldUnitId: units[i]!.id });
      if (i === 0) expect((await lottery.until((v) => v.leased === 1, 'one unit leased')).stage).toBe('drawn');
    }
    const filled = await lottery.until((v) => v.stage === 'filled', 'filled once all units are leased');
    expect(filled).toMatchObject({ leased: UNITS, invited: UNITS, waitlist: APPLICANTS - UNITS, availableActions: { manager: ['Close', 'UnitReopened'] } });
    expect(filled.history.map((h) => h.action)).toContain('AllUnitsLeased');
    expect(drawn.draw?.listHash).toBe(frozen.frozen?.listHash);
    // Closing is the manager's own action.
    expect((await lottery.send('Close', { reason: 'Every unit leased' })).stage).toBe('closed_out');
    expect(await lottery.handle.result()).toBe('closed_out');

    // The households not reached stay ranked, as the waitlist for re-rentals.
    const rest = (await lottery.rows()).filter((r) => r.invited_at === null);
    expect(rest.map((r) => [r.status, r.lottery_rank])).toEqual(Array.from({ length: APPLICANTS - UNITS }, (_, i) => ['waitlisted', UNITS + i + 1]));
    expect(await t.ts.db.selectFrom('opportunity_lotteries').select(['stage', 'invited']).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow()).toEqual({ stage: 'closed_out', invited: UNITS });
    expect((await t.ts.db.selectFrom('applications').select('status').where('id', 'in', invited.map((r) => r.id)).execute()).map((r) => r.status)).toEqual(['ended', 'ended']);
    await recordHistory('lottery-lifecycle', lottery.handle);
    // A case invited from the lottery, to its lease signed (the signal that counts its unit).
    await recordHistory('lease-up-lottery-leased', t.leaseUpCase(invited[0]!.id).handle);
  });
});
