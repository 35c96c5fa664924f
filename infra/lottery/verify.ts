import type { Db } from '../db/database';
import { LOTTERY_ALGORITHM, drawLottery, resultHash, seedHash, type DrawResult, type LotteryEntry } from './draw';

/** A rank stored on an application that the published values do not produce. */
export interface RankMismatch {
  logNumber: string;
  stored: number | null;
  computed: number;
}

/**
 * What `npm run lottery:verify` and the public results page report: the draw recomputed from the
 * published values (revealed seed, public value, set-asides, units) and the frozen list as stored
 * (every application of the opportunity holding a rank, with its groups), compared with what was
 * published and with the ranks the applications hold.
 */
export interface LotteryVerification {
  opportunityId: string;
  /** Every check below passed. */
  matches: boolean;
  algorithm: string | null;
  /** SHA-256 of the revealed seed equals the hash committed when applications opened. */
  seedHashMatches: boolean;
  /** The ranked applications hash to the published list hash (nobody added, removed or regrouped). */
  listHashMatches: boolean;
  /** The published list hash is the one published when the list froze, before the draw (null: drawn without a freeze). */
  frozenListMatches: boolean | null;
  /** The order recomputed from the published values hashes to the published result hash. */
  resultHashMatches: boolean;
  /** The applications' stored ranks, read in rank order, hash to the published result hash too. */
  storedOrderMatches: boolean;
  /** Applications holding a rank, and the count published at the draw. */
  entries: number;
  publishedEntries: number;
  /** Applications whose stored rank differs from the recomputed one (the first 1,000; `mismatchCount` counts all). */
  mismatches: RankMismatch[];
  mismatchCount: number;
  /** Log numbers whose stored group positions differ from the recomputed ones (the first 1,000). */
  groupPositionMismatches: string[];
  computed: { listHash: string; resultHash: string } | null;
  /** Why a check could not run or failed, in words, for the command's report. */
  problems: string[];
}

/** No lottery for this opportunity, or it has not been drawn yet (nothing to verify). */
export class LotteryNotDrawn extends Error {
  constructor(readonly reason: 'no_lottery' | 'not_drawn') {
    super(reason === 'no_lottery' ? 'this opportunity has no lottery' : 'the lottery has not been drawn yet');
    this.name = 'LotteryNotDrawn';
  }
}

const LISTED = 1000;

export async function verifyLottery(db: Db, opportunityId: string): Promise<LotteryVerification> {
  const lottery = await db
    .selectFrom('opportunity_lotteries')
    .select(['seed_hash', 'seed_revealed', 'public_value', 'algorithm', 'list_hash', 'result_hash', 'set_asides', 'units', 'entries', 'drawn_at', 'frozen_list_hash', 'frozen_entries'])
    .where('opportunity_id', '=', opportunityId)
    .executeTakeFirst();
  if (!lottery) throw new LotteryNotDrawn('no_lottery');
  if (!lottery.drawn_at || lottery.seed_revealed === null || lottery.public_value === null) throw new LotteryNotDrawn('not_drawn');

  // Rank order, so the stored order can be hashed as read; the (opportunity_id, lottery_rank, id) index serves it.
  const rows = await db
    .selectFrom('applications')
    .select(['id', 'log_number', 'lottery_rank', 'lottery_groups', 'lottery_group_positions'])
    .where('opportunity_id', '=', opportunityId)
    .where('lottery_rank', 'is not', null)
    .orderBy('lottery_rank')
    .orderBy('id')
    .execute();

  const problems: string[] = [];
  // As the draw activity does (activities/lottery.ts): an application without a log number enters under its id.
  const withLog = rows.map((r) => ({ ...r, log_number: r.log_number ?? r.id }));
  const entries: LotteryEntry[] = withLog.map((r) => ({ logNumber: r.log_number, groups: r.lottery_groups ?? [] }));

  const seedHashMatches = seedHash(lottery.seed_revealed) === lottery.seed_hash;
  if (!seedHashMatches) problems.push('the revealed seed does not hash to the seed hash published when applications opened');
  if (lottery.algorithm !== LOTTERY_ALGORITHM) problems.push(`unknown algorithm ${JSON.stringify(lottery.algorithm)} (this version recomputes ${LOTTERY_ALGORITHM})`);
  if (rows.length !== lottery.entries) problems.push(`${rows.length} application(s) hold a rank, but the draw published ${lottery.entries}`);

  let drawn: DrawResult | null = null;
  try {
    drawn = drawLottery({ seed: lottery.seed_revealed, publicValue: lottery.public_value, entries, setAsides: lottery.set_asides ?? [], units: lottery.units });
  } catch (error) {
    problems.push(`the stored list cannot be drawn: ${error instanceof Error ? error.message : String(error)}`);
  }

  const stored = new Map(withLog.map((r) => [r.log_number, r]));
  const mismatches: RankMismatch[] = [];
  const groupPositionMismatches: string[] = [];
  let mismatchCount = 0;
  for (const r of drawn?.ranked ?? []) {
    const row = stored.get(r.logNumber)!;
    if (row.lottery_rank !== r.rank) {
      mismatchCount += 1;
      if (mismatches.length < LISTED) mismatches.push({ logNumber: r.logNumber, stored: row.lottery_rank, computed: r.rank });
    }
    if (!samePositions(row.lottery_group_positions, r.groupPositions) && groupPositionMismatches.length < LISTED) groupPositionMismatches.push(r.logNumber);
  }
  if (mismatchCount > 0) problems.push(`${mismatchCount} stored rank(s) differ from the recomputed order`);
  if (groupPositionMismatches.length > 0) problems.push(`${groupPositionMismatches.length} stored group position(s) differ from the recomputed ones`);

  const listHashMatches = drawn !== null && drawn.listHash === lottery.list_hash;
  if (drawn && !listHashMatches) problems.push('the ranked applications do not hash to the published list hash');
  const frozenListMatches = lottery.frozen_list_hash === null ? null : lottery.frozen_list_hash === lottery.list_hash && lottery.frozen_entries === lottery.entries;
  if (frozenListMatches === false) problems.push('the drawn list is not the list frozen (and published) before the draw');
  const resultHashMatches = drawn !== null && drawn.resultHash === lottery.result_hash;
  if (drawn && !resultHashMatches) problems.push('the recomputed order does not hash to the published result hash');
  const storedOrderMatches = resultHash(withLog.map((r) => r.log_number)) === lottery.result_hash;
  if (!storedOrderMatches) problems.push('the stored ranks, read in order, do not hash to the published result hash');

  return {
    opportunityId,
    matches: problems.length === 0,
    algorithm: lottery.algorithm,
    seedHashMatches,
    listHashMatches,
    frozenListMatches,
    resultHashMatches,
    storedOrderMatches,
    entries: rows.length,
    publishedEntries: lottery.entries,
    mismatches,
    mismatchCount,
    groupPositionMismatches,
    computed: drawn && { listHash: drawn.listHash, resultHash: drawn.resultHash },
    problems,
  };
}

function samePositions(stored: Record<string, number> | null, computed: Record<string, number>): boolean {
  const a = Object.entries(stored ?? {});
  return a.length === Object.keys(computed).length && a.every(([g, p]) => computed[g] === p);
}
