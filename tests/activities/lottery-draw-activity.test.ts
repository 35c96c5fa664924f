import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawLottery } from '../../activities/lottery';
import { createKeyRing } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { seedDemoData } from '../../infra/seed';
import { seedDemoLottery } from '../../infra/seed-lottery';
import { createTestDatabase } from '../helpers/stack';

/**
 * The draw activity over PostgreSQL. Its ranks are written by several connections and
 * its result recorded last, so an attempt cut off midway must be safe to run again: the next attempt
 * ranks the same frozen list (still 'in lottery' or already waitlisted by the same draw) the same way.
 */
describe('the draw activity', () => {
  it('writes a rank to every application, answers the stored result again, and an interrupted draw drawn again gives the same order', async () => {
    useDataKeys(createKeyRing(randomBytes(32).toString('base64')));
    const { db } = await createTestDatabase();
    await seedDemoData(db);
    const org = await db.selectFrom('organizations').select('id').orderBy('created_at').executeTakeFirstOrThrow();
    const applicant = await db.selectFrom('users').select('id').where('role', '=', 'User').orderBy('created_at').executeTakeFirstOrThrow();
    await seedDemoLottery(db, org.id, applicant.id, new Date());
    const { opportunity_id: opportunityId } = await db.selectFrom('opportunity_lotteries').select('opportunity_id').executeTakeFirstOrThrow();
    const ranks = async () =>
      Object.fromEntries(
        (await db.selectFrom('applications').select(['id', 'status', 'lottery_rank']).where('opportunity_id', '=', opportunityId).execute()).map((r) => [r.id, `${r.status}:${r.lottery_rank}`]),
      );
    const entered = Object.keys(await ranks()).length;
    expect(entered).toBeGreaterThan(100);

    const first = await drawLottery(db, { opportunityId, publicValue: '07 19 23' });
    expect(first.entries).toBe(entered);
    const drawn = await ranks();
    expect(Object.values(drawn).every((v) => v.startsWith('waitlisted:'))).toBe(true);
    expect(new Set(Object.values(drawn).map((v) => Number(v.split(':')[1])))).toEqual(new Set(Array.from({ length: entered }, (_, i) => i + 1)));
    expect(await drawLottery(db, { opportunityId, publicValue: 'another value' })).toEqual(first);

    // As if an attempt had written some ranks and stopped before recording its result.
    const ids = Object.keys(drawn);
    await db.updateTable('opportunity_lotteries').set({ result_hash: null, drawn_at: null, algorithm: null, list_hash: null, seed_revealed: null, public_value: null, entries: 0 }).where('opportunity_id', '=', opportunityId).execute();
    await db.updateTable('applications').set({ status: 'in_lottery', lottery_rank: null }).where('id', 'in', ids.filter((_, i) => i % 3 === 0)).execute();
    const again = await drawLottery(db, { opportunityId, publicValue: '07 19 23' });
    expect({ ...again, drawnAt: first.drawnAt }).toEqual(first);
    expect(await ranks()).toEqual(drawn);
    await db.destroy();
  }, 120_000);
});
