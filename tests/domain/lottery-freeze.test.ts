import { describe, expect, it } from 'vitest';
import { LOTTERY_TABLE, fireLotteryTimer, initialLotteryState, listFreezesAt, lotteryView, lotteryWork, recordDraw, recordFreeze, refusalOf, type LotteryState } from '../../domain';
import { lotteryFinished } from '../../domain/lottery.table';

const NOW = '2026-11-24T10:00:00.000Z';
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const manager = { actor: { userId: ID(9), role: 'manager' as const, impersonatedBy: null } };
const system = { actor: { userId: 'system', role: 'system' as const, impersonatedBy: null } };
const ctx = { now: NOW, timer: () => {}, notify: () => {} };
const DEADLINE = '2026-11-20';
const GRACE = 5;
const at = (iso: string) => Date.parse(iso);

function lottery(mailGraceDays: number | null = GRACE, units = 2): LotteryState {
  return initialLotteryState({ opportunityId: ID(0), organizationId: ID(0), deadline: DEADLINE, units, seedHash: 'x', ...(mailGraceDays === null ? {} : { mailGraceDays }) }, NOW);
}
const refusal = (s: LotteryState, action: keyof typeof LOTTERY_TABLE, input: object, now: string) =>
  refusalOf(LOTTERY_TABLE, action, s, { ...manager, ...input } as never, at(now), lotteryFinished);
const paper = (postmarkDate: string) => ({ householdId: ID(1), postmarkDate, householdSize: 2, householdIncome: 30_000, formDocumentId: ID(2), groups: [] });
const close = (s: LotteryState) => fireLotteryTimer(s, { event: 'ApplicationsClosed', at: '', token: DEADLINE });
const freezeTimer = (s: LotteryState) => fireLotteryTimer(s, { event: 'ListFreezes', at: '', token: DEADLINE });

describe('lottery: the mail grace period and the frozen list', () => {
  it('takes paper postmarked by the deadline until the list freezes, and never after', () => {
    const s = lottery();
    const freezesAt = listFreezesAt(DEADLINE, GRACE);
    expect(freezesAt).toBe('2026-11-26T00:00:00.000Z');
    expect(refusal(s, 'EnterPaperApplication', paper('2026-11-19'), '2026-11-19T12:00:00Z')).toBeNull();
    expect(refusal(s, 'EnterPaperApplication', paper('2026-11-21'), '2026-11-21T12:00:00Z')).toBe('postmarkAfterDeadline');
    expect(refusal(s, 'EnterPaperApplication', paper('2026-11-19'), '2026-11-18T12:00:00Z')).toBe('postmarkInFuture');
    close(s);
    expect(s.stage).toBe('closed');
    // In the grace period: on-time mail is still entered; online applications are not (the API checks the deadline).
    expect(refusal(s, 'EnterPaperApplication', paper('2026-11-20'), '2026-11-25T23:00:00Z')).toBeNull();
    expect(refusal(s, 'EnterPaperApplication', paper('2026-11-20'), freezesAt)).toBe('actionNotAllowedNow');
  });

  it('cannot be drawn before the freeze; the freeze timer asks for it, an undecided pair stops it (saying which), and the manager freezes after deciding', () => {
    const s = lottery();
    close(s);
    expect(refusal(s, 'Draw', { publicValue: '1' }, '2026-11-25T00:00:00Z')).toBe('listNotFrozen');
    expect(refusal(s, 'FreezeList', {}, '2026-11-25T00:00:00Z')).toBe('actionNotAllowedNow');
    expect(freezeTimer(s)).toContain('mail grace period over');
    expect(lotteryWork(s)).toBe('freeze');
    recordFreeze(s, { undecidedPairs: ['LU-000001 / LU-000007'] }, NOW);
    expect(s).toMatchObject({ frozen: null, freezeDue: false, freezeBlockedBy: ['LU-000001 / LU-000007'] });
    expect(lotteryWork(s)).toBeNull();
    expect(s.history.at(-1)).toMatchObject({ action: 'FreezeWaits', note: 'undecided duplicate pairs: LU-000001 / LU-000007' });
    expect(refusal(s, 'ResolveDuplicate', { pairId: ID(3), keep: ID(4), reason: 'Same person; the online one was first' }, '2026-11-27T00:00:00Z')).toBeNull();
    expect(refusal(s, 'ResolveDuplicate', { pairId: ID(3), keep: ID(4) }, '2026-11-27T00:00:00Z')).toBe('reasonRequired');
    // Decided before the grace period ends: nothing to retry yet; after it, the freeze is tried again by itself.
    LOTTERY_TABLE.ResolveDuplicate.change(s, { ...manager, pairId: ID(3), keep: ID(4), reason: 'r' }, { ...ctx, now: '2026-11-25T00:00:00.000Z' });
    expect(lotteryWork(s)).toBeNull();
    expect(refusal(s, 'FreezeList', {}, '2026-11-27T00:00:00Z')).toBeNull();
    LOTTERY_TABLE.ResolveDuplicate.change(s, { ...manager, pairId: ID(3), keep: ID(4), reason: 'r' }, { ...ctx, now: '2026-11-27T00:00:00.000Z' });
    expect(lotteryWork(s)).toBe('freeze');
    expect(refusal(s, 'FreezeList', {}, '2026-11-27T00:00:00Z')).toBe('actionNotAllowedNow');
    recordFreeze(s, { frozen: { listHash: 'abc', entries: 12, frozenAt: NOW } }, NOW);
    const view = lotteryView(s, at('2026-11-27T00:00:00Z'));
    expect(view).toMatchObject({ frozen: { listHash: 'abc', entries: 12 }, freezeBlockedBy: [], listFreezesAt: '2026-11-26T00:00:00.000Z' });
    expect(view.availableActions.manager).toEqual(['Draw', 'Close']);
    // Frozen: no paper, no decision, no second freeze.
    expect(refusal(s, 'EnterPaperApplication', paper('2026-11-20'), '2026-11-27T00:00:00Z')).toBe('actionNotAllowedNow');
    expect(refusal(s, 'ResolveDuplicate', { pairId: ID(3), keep: ID(4), reason: 'r' }, '2026-11-27T00:00:00Z')).toBe('actionNotAllowedNow');
  });

  it('a lottery started before freezes existed draws without one and closes when filled, as it always did', () => {
    const s = lottery(null);
    close(s);
    expect(freezeTimer(s)).toBe(false);
    expect(refusal(s, 'Draw', { publicValue: '1' }, '2026-11-22T00:00:00Z')).toBeNull();
    expect(refusal(s, 'EnterPaperApplication', paper('2026-11-19'), '2026-11-21T00:00:00Z')).toBe('actionNotAllowedNow');
    recordDraw(s, { entries: 10, algorithm: 'a', listHash: 'l', resultHash: 'r', drawnAt: NOW });
    LOTTERY_TABLE.UnitLeased.change(s, { ...system, applicationId: ID(1) }, ctx);
    LOTTERY_TABLE.UnitLeased.change(s, { ...system, applicationId: ID(2) }, ctx);
    expect(s.stage).toBe('closed_out');
  });
});

describe('lottery: filled keeps the waitlist for re-rentals', () => {
  it('every unit leased: filled with its waitlist; a re-rented unit invites the next household; closing is separate', () => {
    const s = lottery();
    close(s);
    recordFreeze(s, { frozen: { listHash: 'l', entries: 10, frozenAt: NOW } }, NOW);
    recordDraw(s, { entries: 10, algorithm: 'a', listHash: 'l', resultHash: 'r', drawnAt: NOW });
    for (const n of [1, 2]) LOTTERY_TABLE.UnitLeased.change(s, { ...system, applicationId: ID(n) }, ctx);
    expect(s).toMatchObject({ stage: 'filled', waitlist: 10, pendingInvitations: 0 });
    expect(s.history.at(-1)).toMatchObject({ action: 'AllUnitsLeased', note: '2 of 2 units leased' });
    expect(lotteryView(s, at(NOW)).availableActions.manager).toEqual(['Close', 'UnitReopened']);
    expect(refusal(s, 'InviteNext', { count: 1 }, NOW)).toBe('actionNotAllowedNow');
    LOTTERY_TABLE.UnitReopened.change(s, { ...manager, unit: '2A' });
    expect(s).toMatchObject({ stage: 'drawn', pendingInvitations: 1, reopened: ['2A'] });
    expect(lotteryWork(s)).toBe('invite');
    // The re-rented unit leased again: filled again (leases count against units plus re-rentals).
    LOTTERY_TABLE.UnitLeased.change(s, { ...system, applicationId: ID(3) }, ctx);
    expect(s.stage).toBe('filled');
    LOTTERY_TABLE.Close.change(s);
    expect(s.stage).toBe('closed_out');
  });
});
