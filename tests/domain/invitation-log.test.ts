import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { invitationLogText, invitationReasonOf, type InvitationLogLine } from '../../domain';
import { verifyInvitationLog } from '../../infra/lottery/verify';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A log chained exactly as domain/invitation-log.ts describes it, written independently of the code. */
function chained(genesis: string, lines: Omit<InvitationLogLine, 'hash' | 'seq'>[]): InvitationLogLine[] {
  let previous = genesis;
  return lines.map((line, i) => {
    const text = JSON.stringify([i + 1, line.logNumber, line.rank, line.event, line.reason, line.unitSizes, line.at]);
    previous = sha256(`${previous}\n${text}`);
    return { ...line, seq: i + 1, hash: previous };
  });
}

const at = '2026-11-21T10:00:00.000Z';
const ranks = new Map([['LU-1', 1], ['LU-2', 2], ['LU-3', 3], ['LU-4', 4]]);
const genesis = 'a'.repeat(64);

describe('the invitation log rules', () => {
  it("names an invitation's public reason from the lottery's own reason for it", () => {
    expect(invitationReasonOf(undefined)).toBe('in_rank_order');
    expect(invitationReasonOf('manager 2026-11-21: 4')).toBe('in_rank_order');
    expect(invitationReasonOf('offer_expired LU-000012')).toBe('next_after_release');
    expect(invitationReasonOf('withdrawn LU-000012')).toBe('next_after_release');
    expect(invitationReasonOf('reopened 2B')).toBe('unit_reopened');
  });

  it('verifies a log chained by the published rule, and finds the first changed line and an invitation out of order', () => {
    expect(invitationLogText({ seq: 1, logNumber: 'LU-2', rank: 2, event: 'passed_over', reason: 'unit_size_declined', unitSizes: ['1 bedroom'], at })).toBe(
      `[1,"LU-2",2,"passed_over","unit_size_declined",["1 bedroom"],"${at}"]`,
    );
    const log = chained(genesis, [
      { logNumber: 'LU-2', rank: 2, event: 'passed_over', reason: 'inactive', unitSizes: [], at },
      { logNumber: 'LU-1', rank: 1, event: 'invited', reason: 'in_rank_order', unitSizes: [], at },
      { logNumber: 'LU-3', rank: 3, event: 'invited', reason: 'in_rank_order', unitSizes: [], at },
    ]);
    const published = { genesis, head: log.at(-1)!.hash, length: 3 };
    const problems: string[] = [];
    expect(verifyInvitationLog(log, published, ranks, problems)).toMatchObject({ chainMatches: true, headMatches: true, linesMatchRanks: true, outOfOrderCount: 0 });
    expect(problems).toEqual([]);

    const changed = log.map((l) => (l.seq === 2 ? { ...l, reason: 'unit_reopened' as const } : l));
    expect(verifyInvitationLog(changed, published, ranks, [])).toMatchObject({ chainMatches: false, firstBrokenLine: 2 });

    // Without the pass-over, rank 3 went ahead of rank 2.
    const skipping = chained(genesis, [log[1]!, log[2]!]);
    const result = verifyInvitationLog(skipping, { genesis, head: skipping.at(-1)!.hash, length: 2 }, ranks, []);
    expect(result).toMatchObject({ chainMatches: true, outOfOrderCount: 1, outOfOrder: [{ seq: 2, logNumber: 'LU-3', rank: 3, aheadOf: { logNumber: 'LU-2', rank: 2 } }] });

    // A wrong rank, a reason of the other event and a second invitation are named.
    const wrong = chained(genesis, [
      { logNumber: 'LU-1', rank: 2, event: 'invited', reason: 'in_rank_order', unitSizes: [], at },
      { logNumber: 'LU-2', rank: 2, event: 'invited', reason: 'withdrawn', unitSizes: [], at },
      { logNumber: 'LU-2', rank: 2, event: 'invited', reason: 'in_rank_order', unitSizes: [], at },
    ]);
    const wrongProblems: string[] = [];
    expect(verifyInvitationLog(wrong, { genesis, head: wrong.at(-1)!.hash, length: 3 }, ranks, wrongProblems).linesMatchRanks).toBe(false);
    expect(wrongProblems).toEqual([
      'line 1: log number LU-1 does not hold rank 2',
      'line 2: "withdrawn" is not a reason for "invited"',
      'line 3: log number LU-2 invited a second time',
      // Rank 1 itself was never invited or passed over: each of the three went ahead of it.
      '3 invitation(s) went ahead of a higher-ranked household without a recorded pass-over',
    ]);
    // A head that is not the published one (a line dropped from the end).
    expect(verifyInvitationLog(log.slice(0, 2), published, ranks, []).headMatches).toBe(false);
  });
});
