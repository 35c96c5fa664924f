import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { markInvited, nextInvitations } from '../../activities/lottery';
import { rankedCsv } from '../../api/services/lottery';
import { useDataKeys } from '../../infra/data-keys';
import { createKeyRing } from '../../infra/crypto';
import type { Db } from '../../infra/db/database';
import { appendInvitationLog, readInvitationLog } from '../../infra/db/repositories/invitation-log';
import { verifyLottery } from '../../infra/lottery/verify';
import { insertDrawnLottery, type DrawnLottery } from '../helpers/drawn-lottery';
import { createTestDatabase } from '../helpers/stack';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';

const run = promisify(execFile);

async function verifyCommand(databaseUrl: string, opportunityId: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('npx', ['tsx', 'infra/lottery/verify-cli.ts', '--', opportunityId], { env: { ...process.env, DATABASE_URL: databaseUrl } });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** One batch as the lottery workflow makes it: the next households, then each marked invited. */
async function inviteBatch(db: Db, opportunityId: string, count: number, because = 'manager 2026-11-21: 1') {
  const batch = await nextInvitations(db, { opportunityId, count });
  const ids = batch.invitations.map((i) => i.input.applicationId);
  const marked = await markInvited(db, { opportunityId, applicationIds: ids, reasons: Object.fromEntries(ids.map((id) => [id, because])) });
  return { batch, marked };
}

describe('the invitation log (every invitation and pass-over, chained, checked by lottery:verify)', async () => {
  useDataKeys(createKeyRing(HISTORY_FIXTURE_KEY));
  const { db, url } = await createTestDatabase();
  afterAll(() => db.destroy());

  /** A drawn lottery with two unit sizes; the households at ranks 2, 4 and 5 are inactive, decline both sizes, and withdrew. */
  async function lotteryWithPassOvers(): Promise<DrawnLottery & { logAt: (rank: number) => string; idAt: (rank: number) => Promise<string> }> {
    const lottery = await insertDrawnLottery(db, { households: 30, units: 6 });
    await db
      .insertInto('units')
      .values(['1 bedroom', '2 bedroom'].map((bedroom_type, i) => ({ opportunity_id: lottery.opportunityId, unit_number: `${i + 1}A`, bedroom_type, address: '1 Draw Street', accessibility: '[]', monthly_rent: 900, ami_percent: 50 })))
      .execute();
    const logAt = (rank: number) => lottery.result.ranked[rank - 1]!.logNumber;
    const idAt = async (rank: number) => (await db.selectFrom('applications').select('id').where('log_number', '=', logAt(rank)).executeTakeFirstOrThrow()).id;
    await db.updateTable('applications').set({ waitlist_state: 'inactive', waitlist_state_at: new Date('2026-11-21T10:00:00Z'), waitlist_state_reason: 'no_answer' }).where('log_number', '=', logAt(2)).execute();
    await db.updateTable('applications').set({ declined_bedroom_types: JSON.stringify(['2 bedroom', '1 bedroom']) }).where('log_number', '=', logAt(4)).execute();
    await db.updateTable('applications').set({ status: 'withdrawn' }).where('log_number', '=', logAt(5)).execute();
    return { ...lottery, logAt, idAt };
  }

  it('passes over inactive, size-declining and withdrawn households once each, invites in rank order, and verifies', async () => {
    const lottery = await lotteryWithPassOvers();
    const { opportunityId, logAt } = lottery;

    // A retried activity: the pass-overs it logged are not logged again.
    const first = await nextInvitations(db, { opportunityId, count: 4 });
    expect(first.invitations.map((i) => i.rank)).toEqual([1, 3, 6, 7]);
    const again = await nextInvitations(db, { opportunityId, count: 4 });
    expect(again.invitations.map((i) => i.rank)).toEqual([1, 3, 6, 7]);
    let log = await readInvitationLog(db, opportunityId, 0, 100);
    expect(log.map((l) => [l.rank, l.event, l.reason])).toEqual([
      [2, 'passed_over', 'inactive'],
      [4, 'passed_over', 'unit_size_declined'],
      [5, 'passed_over', 'withdrawn'],
    ]);
    expect(log[1]!.unitSizes).toEqual(['1 bedroom', '2 bedroom']);

    const ids = first.invitations.map((i) => i.input.applicationId);
    await markInvited(db, { opportunityId, applicationIds: ids, reasons: Object.fromEntries(ids.map((id) => [id, 'manager 2026-11-21: 4'])) });
    const marked = await markInvited(db, { opportunityId, applicationIds: ids });
    // 30 ranked: 4 invited, one inactive, one declining every size and one withdrawn are not invitable now.
    expect(marked.waitlist).toBe(23);
    log = await readInvitationLog(db, opportunityId, 0, 100);
    expect(log.map((l) => [l.seq, l.logNumber, l.rank, l.event, l.reason])).toEqual([
      [1, logAt(2), 2, 'passed_over', 'inactive'],
      [2, logAt(4), 4, 'passed_over', 'unit_size_declined'],
      [3, logAt(5), 5, 'passed_over', 'withdrawn'],
      [4, logAt(1), 1, 'invited', 'in_rank_order'],
      [5, logAt(3), 3, 'invited', 'in_rank_order'],
      [6, logAt(6), 6, 'invited', 'in_rank_order'],
      [7, logAt(7), 7, 'invited', 'in_rank_order'],
    ]);
    // No names, no personal data: only the public columns reach the page.
    expect(Object.keys(log[0]!).sort()).toEqual(['at', 'event', 'hash', 'logNumber', 'rank', 'reason', 'seq', 'unitSizes']);
    const published = await db.selectFrom('opportunity_lotteries').select(['invitation_log_head', 'invitation_log_length']).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
    expect(published).toEqual({ invitation_log_head: log.at(-1)!.hash, invitation_log_length: 7 });

    // The next batch still passes over the inactive household without logging it again; once it
    // restores its place it is the next invited, ahead of every lower rank; a released place names its reason.
    await inviteBatch(db, opportunityId, 1);
    await db.updateTable('applications').set({ waitlist_state: 'active', waitlist_state_at: new Date('2026-11-25T10:00:00Z') }).where('log_number', '=', logAt(2)).execute();
    await inviteBatch(db, opportunityId, 1, `offer_declined ${logAt(1)}`);
    log = await readInvitationLog(db, opportunityId, 0, 100);
    expect(log.slice(7).map((l) => [l.rank, l.event, l.reason])).toEqual([
      [8, 'invited', 'in_rank_order'],
      [2, 'invited', 'next_after_release'],
    ]);

    const verified = await verifyLottery(db, opportunityId);
    expect(verified.problems).toEqual([]);
    expect(verified.invitationLog).toMatchObject({ lines: 9, invited: 6, passedOver: 3, chainMatches: true, headMatches: true, linesMatchRanks: true, outOfOrderCount: 0 });
    const ok = await verifyCommand(url, opportunityId);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("the invitation log's 9 line(s) (6 invited, 3 passed over) chain from the result hash");

    // The manager's CSV names each household's last pass-over reason.
    const org = await db.selectFrom('opportunity_lotteries').select('organization_id').where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
    const manager = await db
      .insertInto('users')
      .values({ username: `log-manager-${opportunityId.slice(0, 8)}`, email: `log-manager-${opportunityId.slice(0, 8)}@example.test`, first_name: 'M', last_name: 'M', role: 'Manager', password_hash: 'x', organization_id: org.organization_id })
      .returning('id')
      .executeTakeFirstOrThrow();
    let csv = '';
    for await (const chunk of rankedCsv(db, { userId: manager.id, role: 'Manager', realUserId: null }, opportunityId)) csv += chunk;
    const csvLines = csv.trim().split('\n');
    expect(csvLines[0]).toBe('rank,log_number,status,household_size,groups,group_positions,skip_reason,invited_at,pass_over_reason');
    expect(csvLines.map((l) => l.split(',').at(-1))).toEqual(['pass_over_reason', '""', '"inactive"', '""', '"unit_size_declined"', '"withdrawn"', ...Array(25).fill('""')]);
  });

  it('refuses to change a line; a line changed behind its back fails lottery:verify, naming the line', async () => {
    const { opportunityId } = await lotteryWithPassOvers();
    await inviteBatch(db, opportunityId, 4);
    await expect(sql`update lottery_invitation_log set reason = 'removed' where opportunity_id = ${opportunityId} and seq = 1`.execute(db)).rejects.toThrow(/append-only/);

    await sql`alter table lottery_invitation_log disable trigger lottery_invitation_log_append_only`.execute(db);
    try {
      await sql`update lottery_invitation_log set reason = 'removed' where opportunity_id = ${opportunityId} and seq = 2`.execute(db);
    } finally {
      await sql`alter table lottery_invitation_log enable trigger lottery_invitation_log_append_only`.execute(db);
    }
    const tampered = await verifyLottery(db, opportunityId);
    expect(tampered.matches).toBe(false);
    expect(tampered.invitationLog).toMatchObject({ chainMatches: false, firstBrokenLine: 2 });
    // The draw itself still verifies: the fault is in the log.
    expect(tampered).toMatchObject({ seedHashMatches: true, resultHashMatches: true, storedOrderMatches: true });
    const bad = await verifyCommand(url, opportunityId);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('invitation log line 2 does not hash from the line before it');
    expect(bad.out).toContain('does NOT verify');
  });

  it('fails when an invitation went ahead of a higher-ranked active household without a recorded reason', async () => {
    const { opportunityId, logAt, idAt } = await lotteryWithPassOvers();
    await inviteBatch(db, opportunityId, 4);
    // Correctly chained and published, so only the order gives it away: rank 12 invited while 8 waits.
    await db.transaction().execute((trx) =>
      appendInvitationLog(trx, opportunityId, [{ applicationId: 'ffffffff-ffff-4fff-8fff-ffffffffffff', logNumber: logAt(12), rank: 12, event: 'invited', reason: 'in_rank_order', dedupeKey: 'forged' }]),
    );
    const forged = await verifyLottery(db, opportunityId);
    expect(forged.matches).toBe(false);
    expect(forged.invitationLog).toMatchObject({ chainMatches: true, headMatches: true, outOfOrderCount: 1 });
    expect(forged.invitationLog.outOfOrder).toEqual([{ seq: 8, logNumber: logAt(12), rank: 12, aheadOf: { logNumber: logAt(8), rank: 8 } }]);
    expect(await idAt(8)).toBeTruthy();
    const bad = await verifyCommand(url, opportunityId);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`log line 8: ${logAt(12)} (rank 12) invited ahead of ${logAt(8)} (rank 8), which has no pass-over`);
  });
});
