import { reasonFitsEvent, type InvitationLogLine } from '../../domain';
import type { Db } from '../db/database';
import { invitationLogHash, readInvitationLog } from '../db/repositories/invitation-log';
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
  invitationLog: InvitationLogVerification;
  /** Why a check could not run or failed, in words, for the command's report. */
  problems: string[];
}

/** An invitation made while a higher-ranked household was neither invited nor passed over with a reason. */
export interface OutOfOrderInvitation {
  seq: number;
  logNumber: string;
  rank: number;
  /** The highest-ranked household it went ahead of. */
  aheadOf: { logNumber: string; rank: number };
}

/** The invitation log checked against its published head and the published ranks (domain/invitation-log.ts). */
export interface InvitationLogVerification {
  lines: number;
  invited: number;
  passedOver: number;
  /** Every line hashes, from the draw's result hash, to the hash stored with it, numbered 1, 2, … */
  chainMatches: boolean;
  /** The last line's hash and the number of lines are the ones published on the lottery. */
  headMatches: boolean;
  /** The first line whose text or hash does not follow from the line before (null when all do). */
  firstBrokenLine: number | null;
  /** Every line names a ranked log number at its rank, with a reason code of its event, and nobody is invited twice. */
  linesMatchRanks: boolean;
  /** No household was invited ahead of a higher-ranked one without a recorded pass-over (the first 1,000). */
  outOfOrder: OutOfOrderInvitation[];
  outOfOrderCount: number;
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
    .select([
      'seed_hash', 'seed_revealed', 'public_value', 'algorithm', 'list_hash', 'result_hash', 'set_asides', 'units', 'entries', 'drawn_at', 'frozen_list_hash', 'frozen_entries',
      'invitation_log_head', 'invitation_log_length',
    ])
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

  const log = await readWholeLog(db, opportunityId);
  const invitationLog = verifyInvitationLog(
    log,
    { genesis: lottery.result_hash ?? '', head: lottery.invitation_log_head, length: lottery.invitation_log_length },
    new Map(withLog.map((r) => [r.log_number, r.lottery_rank!])),
    problems,
  );

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
    invitationLog,
    problems,
  };
}

function samePositions(stored: Record<string, number> | null, computed: Record<string, number>): boolean {
  const a = Object.entries(stored ?? {});
  return a.length === Object.keys(computed).length && a.every(([g, p]) => computed[g] === p);
}

const LOG_PAGE = 10_000;

async function readWholeLog(db: Db, opportunityId: string): Promise<InvitationLogLine[]> {
  const lines: InvitationLogLine[] = [];
  for (;;) {
    const page = await readInvitationLog(db, opportunityId, lines.at(-1)?.seq ?? 0, LOG_PAGE);
    lines.push(...page);
    if (page.length < LOG_PAGE) return lines;
  }
}

/**
 * Checks the invitation log from public values alone: the lines as published, the head and length
 * published on the lottery, and the published rank of each log number. The invitation order is one
 * queue per lottery (the draw already put set-aside households first, so a group's members and each
 * unit size are served in rank order within it): an invitation is in order when every higher rank
 * was invited, or passed over with a reason, earlier in the log.
 */
export function verifyInvitationLog(
  log: readonly InvitationLogLine[],
  published: { genesis: string; head: string | null; length: number },
  rankOf: ReadonlyMap<string, number>,
  problems: string[],
): InvitationLogVerification {
  let previous = published.genesis;
  let firstBrokenLine: number | null = null;
  for (const [i, line] of log.entries()) {
    const { hash, ...text } = line;
    if (line.seq !== i + 1 || invitationLogHash(previous, text) !== hash) {
      firstBrokenLine = line.seq;
      break;
    }
    previous = hash;
  }
  const chainMatches = firstBrokenLine === null;
  if (!chainMatches) problems.push(`invitation log line ${firstBrokenLine} does not hash from the line before it (changed, removed or inserted)`);
  const headMatches = log.length === published.length && (log.length === 0 ? published.head === null : log.at(-1)!.hash === published.head);
  if (!headMatches) problems.push(`the invitation log (${log.length} line(s)) does not end at the published head (${published.length} line(s), ${published.head ?? 'none'})`);

  const wrongLines: string[] = [];
  const invited = new Set<string>();
  const accounted = new Set<number>();
  const logNumberAt = new Map([...rankOf].map(([logNumber, rank]) => [rank, logNumber]));
  let lowest = 1;
  const outOfOrder: OutOfOrderInvitation[] = [];
  let outOfOrderCount = 0;
  for (const line of log) {
    if (rankOf.get(line.logNumber) !== line.rank) wrongLines.push(`line ${line.seq}: log number ${line.logNumber} does not hold rank ${line.rank}`);
    if (!reasonFitsEvent(line.event, line.reason)) wrongLines.push(`line ${line.seq}: ${JSON.stringify(line.reason)} is not a reason for ${JSON.stringify(line.event)}`);
    if (line.event === 'invited') {
      if (invited.has(line.logNumber)) wrongLines.push(`line ${line.seq}: log number ${line.logNumber} invited a second time`);
      invited.add(line.logNumber);
      while (accounted.has(lowest)) lowest += 1;
      if (lowest < line.rank) {
        outOfOrderCount += 1;
        if (outOfOrder.length < LISTED) outOfOrder.push({ seq: line.seq, logNumber: line.logNumber, rank: line.rank, aheadOf: { logNumber: logNumberAt.get(lowest) ?? '?', rank: lowest } });
      }
    }
    accounted.add(line.rank);
  }
  const linesMatchRanks = wrongLines.length === 0;
  problems.push(...wrongLines.slice(0, 20));
  if (wrongLines.length > 20) problems.push(`... and ${wrongLines.length - 20} more invitation log line(s) that do not match the ranks`);
  if (outOfOrderCount > 0) problems.push(`${outOfOrderCount} invitation(s) went ahead of a higher-ranked household without a recorded pass-over`);
  return {
    lines: log.length,
    invited: log.filter((l) => l.event === 'invited').length,
    passedOver: log.filter((l) => l.event === 'passed_over').length,
    chainMatches,
    headMatches,
    firstBrokenLine,
    linesMatchRanks,
    outOfOrder,
    outOfOrderCount,
  };
}
