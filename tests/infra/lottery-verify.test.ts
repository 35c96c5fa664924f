import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { LotteryNotDrawn, verifyLottery } from '../../infra/lottery/verify';
import { createTestDatabase } from '../helpers/stack';
import { insertDrawnLottery } from '../helpers/drawn-lottery';

const run = promisify(execFile);

/** `npm run lottery:verify` as anyone would run it, against this file's database. */
async function verifyCommand(databaseUrl: string, opportunityId: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('npx', ['tsx', 'infra/lottery/verify-cli.ts', '--', opportunityId], { env: { ...process.env, DATABASE_URL: databaseUrl } });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('lottery:verify (detects one altered rank)', async () => {
  const { db, url } = await createTestDatabase();
  afterAll(() => db.destroy());

  it('a published draw verifies; altering one stored rank is caught, naming exactly that application', async () => {
    const lottery = await insertDrawnLottery(db, { households: 60, units: 8 });
    const clean = await verifyLottery(db, lottery.opportunityId);
    expect(clean).toMatchObject({ matches: true, seedHashMatches: true, listHashMatches: true, resultHashMatches: true, storedOrderMatches: true, entries: 60, mismatches: [], problems: [] });
    const ok = await verifyCommand(url, lottery.opportunityId);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('RESULT: the published draw verifies.');

    const victim = lottery.result.ranked[2]!;
    await db.updateTable('applications').set({ lottery_rank: 1 }).where('log_number', '=', victim.logNumber).execute();
    const altered = await verifyLottery(db, lottery.opportunityId);
    expect(altered.matches).toBe(false);
    expect(altered.mismatches).toEqual([{ logNumber: victim.logNumber, stored: 1, computed: 3 }]);
    expect(altered.mismatchCount).toBe(1);
    // The list and the published result still agree with the seeds: the fault is in the stored rank.
    expect(altered).toMatchObject({ seedHashMatches: true, listHashMatches: true, resultHashMatches: true, storedOrderMatches: false });
    const bad = await verifyCommand(url, lottery.opportunityId);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`log number ${victim.logNumber}: stored rank 1, recomputed 3`);
    expect(bad.out).toContain('does NOT verify');
  });

  it('catches a regrouped application, a removed one and a seed that does not match its commitment', async () => {
    const lottery = await insertDrawnLottery(db, { households: 30, units: 4 });
    const [first, second] = lottery.result.ranked;
    await db.updateTable('applications').set({ lottery_groups: JSON.stringify(['disability', 'municipal']) }).where('log_number', '=', first!.logNumber).execute();
    expect(await verifyLottery(db, lottery.opportunityId)).toMatchObject({ matches: false, listHashMatches: false });

    await db.updateTable('applications').set({ lottery_groups: JSON.stringify(lottery.entries.find((e) => e.logNumber === first!.logNumber)!.groups) }).where('log_number', '=', first!.logNumber).execute();
    await db.updateTable('applications').set({ lottery_rank: null }).where('log_number', '=', second!.logNumber).execute();
    const removed = await verifyLottery(db, lottery.opportunityId);
    expect(removed).toMatchObject({ matches: false, listHashMatches: false, entries: 29, publishedEntries: 30 });

    await db.updateTable('applications').set({ lottery_rank: second!.rank }).where('log_number', '=', second!.logNumber).execute();
    expect((await verifyLottery(db, lottery.opportunityId)).matches).toBe(true);
    await db.updateTable('opportunity_lotteries').set({ seed_revealed: '00'.repeat(32) }).where('opportunity_id', '=', lottery.opportunityId).execute();
    expect(await verifyLottery(db, lottery.opportunityId)).toMatchObject({ matches: false, seedHashMatches: false, resultHashMatches: false });
  });

  it('refuses to verify a lottery not yet drawn, or an opportunity without one', async () => {
    const pending = await insertDrawnLottery(db, { households: 5, drawn: false });
    await expect(verifyLottery(db, pending.opportunityId)).rejects.toThrow(LotteryNotDrawn);
    await expect(verifyLottery(db, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ reason: 'no_lottery' });
    const command = await verifyCommand(url, pending.opportunityId);
    expect(command.code).toBe(1);
    expect(command.out).toContain('the lottery has not been drawn yet');
  });
});
