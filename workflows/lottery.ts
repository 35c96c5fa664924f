import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, continueAsNew, log, patched, proxyActivities, proxyLocalActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { LotteryInputs, LotteryRole, LotteryView, StartLotteryInput } from '../domain/lottery';
import { INVITATION_BATCH } from '../domain/lottery';
import {
  LOTTERY_TABLE,
  fireLotteryTimer,
  initialLotteryState,
  isFinalLottery,
  lotteryFinished,
  lotteryView,
  lotteryWork,
  reasonsOfNext,
  recordBatch,
  recordDraw,
  startLotteryTimers,
  upgradeLotteryState,
  type CarriedLotteryState,
  type LotteryState,
} from '../domain/lottery.table';
import { runCase, type CaseDefinition } from './case/run';
import { LOTTERY_LOCAL_PROJECTION_PATCH } from './case/version';
import { lotteryMessages } from './lottery.messages';

type Activities = ReturnType<typeof createActivities>;

const acts = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
/** Projections in the workflow task that made the change (a row update; an action's answer may wait for it: a manager's, rare). */
const localActs = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
/** The draw reads and ranks the whole list (100,000 rows): given more time, still retried until it lands. */
const drawActs = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute' },
});

/** Starts the lease-up case of each invited household at documentation review (the same workflow as any application). */
async function invite(s: LotteryState, at: string): Promise<void> {
  const count = Math.min(s.pendingInvitations, INVITATION_BATCH);
  const batch = await acts.nextInvitations({ opportunityId: s.input.opportunityId, count });
  // Each invitation says its own reason: the next in line after a released place names it, even
  // when it shares a batch with others (two places released at once invite two, each for its own).
  const reasons = reasonsOfNext(s, batch.invitations.length);
  const started: string[] = [];
  await Promise.all(
    batch.invitations.map(async (start, i) => {
      try {
        await startChild('leaseUpApplication', {
          workflowId: start.workflowId,
          args: [{ ...start.input, lottery: { rank: start.rank, because: reasons[i]! } }],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
      } catch (error) {
        // Already invited (a retried batch): it counts once.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
      started.push(start.input.applicationId);
    }),
  );
  const marked = await acts.markInvited({ opportunityId: s.input.opportunityId, applicationIds: started });
  recordBatch(s, { invited: started.length, skipped: batch.skipped, waitlist: marked.waitlist }, at);
}

const lotteryCase = (projectLocally: boolean): CaseDefinition<LotteryState, LotteryInputs, LotteryRole, LotteryView, never> => ({
  table: LOTTERY_TABLE,
  messages: lotteryMessages,
  finished: lotteryFinished,
  isFinal: isFinalLottery,
  view: lotteryView,
  fire: fireLotteryTimer,
  search: (_s, v) => ({ kind: 'lottery', opportunityId: v.opportunityId, organizationId: v.organizationId, status: v.paused ? 'paused' : v.stage, step: v.stage, overdue: false }),
  project: (view) => (projectLocally ? localActs : acts).projectLottery(view),
  notify: (notice) => acts.sendNotice(notice),
  effects: {},
  work: (s) => {
    const next = lotteryWork(s);
    if (next === 'draw') {
      return async (ctx) => {
        recordDraw(s, await drawActs.drawLottery({ opportunityId: s.input.opportunityId, publicValue: s.publicValue ?? '' }));
        s.history.push({ at: ctx.now, action: 'Drawn', by: 'system', note: `${s.draw?.entries ?? 0} entries, result SHA-256 ${s.draw?.resultHash ?? ''}` });
      };
    }
    if (next === 'invite') return (ctx) => invite(s, ctx.now);
    return null;
  },
});

/**
 * One opportunity's lottery (issue 10): applications until the deadline, the draw, invitations in
 * rank order in batches, and the next in line when a household gives its place back. The list and
 * ranks stay in PostgreSQL; the history holds counts and hashes, and continues as new when long.
 */
export async function lottery(input: StartLotteryInput, carried?: CarriedLotteryState): Promise<string> {
  const state = carried ? upgradeLotteryState(carried) : initialLotteryState(input, new Date(Date.now()).toISOString());
  const s = await runCase(lotteryCase(patched(LOTTERY_LOCAL_PROJECTION_PATCH)), state, {
    start: carried ? undefined : (st, ctx) => startLotteryTimers(st, ctx),
    continueAsNew: (st) => continueAsNew<typeof lottery>(input, st),
  });
  log.info('lottery finished', { workflowId: workflowInfo().workflowId, stage: s.stage });
  return s.stage;
}
