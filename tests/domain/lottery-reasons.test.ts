import { describe, expect, it } from 'vitest';
import {
  LOTTERY_TABLE,
  initialLotteryState,
  invitationReason,
  nextInLineTask,
  reasonsOfNext,
  recordBatch,
  recordDraw,
  upgradeLotteryState,
  type CarriedLotteryState,
  type LotteryState,
} from '../../domain';

const NOW = '2026-11-24T10:00:00.000Z';
const ctx = { now: NOW, timer: () => {}, notify: () => {} };
const system = { actor: { userId: 'system', role: 'system' as const, impersonatedBy: null } };
const APP = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function drawn(units = 3): LotteryState {
  const s = initialLotteryState({ opportunityId: APP(0), organizationId: APP(0), deadline: '2026-11-20', units, seedHash: 'x' }, NOW);
  recordDraw(s, { entries: 50, algorithm: 'a', listHash: 'l', resultHash: 'r', drawnAt: NOW });
  return s;
}
const release = (s: LotteryState, n: number, why: 'offer_declined' | 'withdrawn', logNumber?: string) =>
  LOTTERY_TABLE.UnitReleased.change(s, { ...system, applicationId: APP(n), why, ...(logNumber ? { logNumber } : {}) });

/** Pure rules of the lottery's pending invitations (no Temporal): each invitation carries its own reason. */
describe('lottery: why each invitation is made', () => {
  it('a manager batch and two released places: each invitation in order names its own reason, and a batch takes them off', () => {
    const s = drawn();
    LOTTERY_TABLE.InviteNext.change(s, { actor: { userId: APP(9), role: 'manager', impersonatedBy: null }, count: 3 }, ctx);
    release(s, 1, 'offer_declined', 'LU-000001');
    release(s, 2, 'withdrawn');
    expect(s.pendingInvitations).toBe(5);
    expect(reasonsOfNext(s, 5)).toEqual(['manager 2026-11-24: 3', 'manager 2026-11-24: 3', 'manager 2026-11-24: 3', 'offer_declined LU-000001', `withdrawn ${APP(2)}`]);
    recordBatch(s, { invited: 4, skipped: 0, waitlist: 40 }, NOW);
    expect(s.batches.at(-1)?.because).toBe('manager 2026-11-24: 3; offer_declined LU-000001');
    expect(reasonsOfNext(s, 1)).toEqual([`withdrawn ${APP(2)}`]);
    expect(s.pendingInvitations).toBe(1);
  });

  it('an emptied waitlist cancels what is owed', () => {
    const s = drawn();
    release(s, 1, 'withdrawn');
    release(s, 2, 'withdrawn');
    recordBatch(s, { invited: 1, skipped: 0, waitlist: 0 }, NOW);
    expect(s).toMatchObject({ pendingInvitations: 0, pendingReasons: [] });
  });

  it('a state carried over from before per-invitation reasons keeps what was owed, named by its oldest reason', () => {
    const { pendingReasons: _r, leased: _l, ...old } = drawn();
    const carried: CarriedLotteryState = { ...old, pendingInvitations: 7, pendingBecause: ['offer_expired LU-000004', 'manager 2026-11-23: 6'] };
    const s = upgradeLotteryState(carried);
    expect(s.pendingReasons).toEqual([{ because: 'offer_expired LU-000004', count: 7 }]);
    expect(s.leased).toEqual([]);
    expect('pendingBecause' in s).toBe(false);
  });

  it('the last unit leased closes the lottery; a lease counts once', () => {
    const s = drawn(2);
    LOTTERY_TABLE.UnitLeased.change(s, { ...system, applicationId: APP(1) }, ctx);
    expect(s.stage).toBe('drawn');
    expect(LOTTERY_TABLE.UnitLeased.check(s, { ...system, applicationId: APP(1) })).toBe('actionNotAllowedNow');
    release(s, 3, 'withdrawn');
    LOTTERY_TABLE.UnitLeased.change(s, { ...system, applicationId: APP(2) }, ctx);
    expect(s).toMatchObject({ stage: 'closed_out', pendingInvitations: 0, pendingReasons: [] });
    expect(s.history.at(-1)).toMatchObject({ action: 'AllUnitsLeased', note: '2 of 2 units leased' });
  });

  it('the inbox entry of a case invited next in line, only while its first review has not moved on', () => {
    expect(invitationReason('offer_declined LU-000001')).toEqual({ release: 'offer_declined', after: 'LU-000001' });
    expect(invitationReason('manager 2026-11-24: 3')).toBeNull();
    const invitedFor = (because: string, step = 'documentation_review', status = 'in_review') => nextInLineTask({ input: { lottery: { because } }, status, step });
    expect(invitedFor('offer_expired LU-000002')).toEqual({ role: 'manager', action: 'NextInLineAfterOfferExpired', dueAt: null });
    expect(invitedFor('rejected LU-000002')?.action).toBe('NextInLineAfterRejection');
    expect(invitedFor('manager 2026-11-24: 3')).toBeNull();
    expect(invitedFor('withdrawn LU-000002', 'decision')).toBeNull();
    expect(invitedFor('withdrawn LU-000002', 'documentation_review', 'withdrawn')).toBeNull();
    expect(nextInLineTask({ input: {}, status: 'in_review', step: 'documentation_review' })).toBeNull();
  });
});
