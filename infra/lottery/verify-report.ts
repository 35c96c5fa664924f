import type { LotteryVerification } from './verify';

const mark = (ok: boolean) => (ok ? 'ok      ' : 'MISMATCH');

/** The report `npm run lottery:verify` prints: one line per check, then what is wrong. */
export function formatVerification(v: LotteryVerification): string {
  const lines = [
    `Lottery of opportunity ${v.opportunityId} (${v.algorithm ?? 'no algorithm recorded'})`,
    `  ${mark(v.seedHashMatches)}  revealed seed hashes to the seed hash committed when applications opened`,
    `  ${mark(v.listHashMatches)}  the ${v.entries} ranked application(s) hash to the published list hash`,
    v.frozenListMatches === null ? '  (none)    no list was frozen before this draw (drawn before lists froze)' : `  ${mark(v.frozenListMatches)}  the published list hash is the one published when the list froze, before the draw`,
    `  ${mark(v.resultHashMatches)}  the order recomputed from the seeds hashes to the published result hash`,
    `  ${mark(v.storedOrderMatches)}  the stored ranks, in order, hash to the published result hash`,
    `  ${mark(v.mismatchCount === 0)}  every stored rank equals the recomputed rank`,
    `  ${mark(v.groupPositionMismatches.length === 0)}  every stored group position equals the recomputed one`,
  ];
  const log = v.invitationLog;
  lines.push(
    `  ${mark(log.chainMatches)}  the invitation log's ${log.lines} line(s) (${log.invited} invited, ${log.passedOver} passed over) chain from the result hash`,
    `  ${mark(log.headMatches)}  the invitation log ends at the published head`,
    `  ${mark(log.linesMatchRanks)}  every log line names a ranked log number at its rank, with a reason of its event`,
    `  ${mark(log.outOfOrderCount === 0)}  nobody was invited ahead of a higher-ranked household without a recorded pass-over`,
  );
  for (const o of log.outOfOrder.slice(0, 20)) lines.push(`  log line ${o.seq}: ${o.logNumber} (rank ${o.rank}) invited ahead of ${o.aheadOf.logNumber} (rank ${o.aheadOf.rank}), which has no pass-over`);
  if (log.outOfOrderCount > 20) lines.push(`  ... and ${log.outOfOrderCount - 20} more`);
  if (v.computed) lines.push(`  computed list hash   ${v.computed.listHash}`, `  computed result hash ${v.computed.resultHash}`);
  for (const m of v.mismatches.slice(0, 20)) lines.push(`  log number ${m.logNumber}: stored rank ${m.stored ?? 'none'}, recomputed ${m.computed}`);
  if (v.mismatchCount > 20) lines.push(`  ... and ${v.mismatchCount - 20} more`);
  for (const p of v.problems) lines.push(`  - ${p}`);
  lines.push(v.matches ? 'RESULT: the published draw verifies.' : 'RESULT: the published draw does NOT verify.');
  return lines.join('\n');
}
