import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, ParentClosePolicy, continueAsNew, log, patched, startChild, workflowInfo } from '@temporalio/workflow';
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
  recordFreeze,
  refuseDraw,
  startLotteryTimers,
  upgradeLotteryState,
  type CarriedLotteryState,
  type LotteryEffect,
  type LotteryState,
} from '../domain/lottery.table';
import { waitlistWorkflowId } from '../domain/waitlist-check-ins';
import { runCase, type CaseDefinition } from './case/run';
import { draw, localWrites, writes } from './activity-proxies';
import { lotteryMessages } from './lottery.messages';

/** Starts the lease-up case of each invited household at documentation review (the same workflow as any application). */
async function invite(s: LotteryState, at: string): Promise<void> {
  const count = Math.min(s.pendingInvitations, INVITATION_BATCH);
  const batch = await writes.nextInvitations({ opportunityId: s.input.opportunityId, count });
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
  // Each invitation is logged with its public reason; batches invited before the log replay as they ran.
  const because = patched(INVITATION_LOG_PATCH) ? { reasons: Object.fromEntries(batch.invitations.map((start, i) => [start.input.applicationId, reasons[i]!])) } : {};
  const marked = await writes.markInvited({ opportunityId: s.input.opportunityId, applicationIds: started, ...because });
  // Each invited household is told, once, by its chosen channels. Batches invited before this
  // notice existed replay without it (no marker in their history).
  if (patched(INVITATION_NOTICES_PATCH)) {
    const invited = batch.invitations.filter((start) => started.includes(start.input.applicationId));
    await Promise.all(
      invited.map((start) =>
        writes.sendNotice({ userId: start.input.applicantUserId, template: 'lottery-invitation', params: { applicationId: start.input.applicationId }, dedupeKey: `lease-up:${start.input.applicationId}:invited` }),
      ),
    );
  }
  recordBatch(s, { invited: started.length, skipped: batch.skipped, waitlist: marked.waitlist }, at);
}

const INVITATION_NOTICES_PATCH = 'lottery-invitation-notices';
const INVITATION_LOG_PATCH = 'lottery-invitation-log-reasons';
const WAITLIST_CHECK_INS_PATCH = 'waitlist-check-ins';

/** The waitlist's own workflow (workflows/waitlist.ts), abandoned so it outlives this run; started once per opportunity. */
async function startWaitlist(opportunityId: string, drawnAt: string): Promise<void> {
  try {
    await startChild('waitlist', {
      workflowId: waitlistWorkflowId(opportunityId),
      args: [{ opportunityId, drawnAt }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/** Whether an activity failed because the list changed after it was frozen (the draw refuses; nothing to retry). */
const listChanged = (error: unknown) => error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === 'ListChangedAfterFreeze';

const lotteryCase: CaseDefinition<LotteryState, LotteryInputs, LotteryRole, LotteryView, LotteryEffect> = {
  table: LOTTERY_TABLE,
  messages: lotteryMessages,
  finished: lotteryFinished,
  isFinal: isFinalLottery,
  view: lotteryView,
  fire: fireLotteryTimer,
  search: (_s, v) => ({ kind: 'lottery', opportunityId: v.opportunityId, organizationId: v.organizationId, status: v.paused ? 'paused' : v.stage, step: v.stage, overdue: false }),
  // In the workflow task that made the change: the manager's page reads the projection, so a draw or a batch shows at once.
  project: (view) => localWrites.projectLottery(view),
  notify: (notice) => writes.sendNotice(notice),
  effects: {
    admitPaperApplication: async (s, input: LotteryInputs['EnterPaperApplication'] & { actor: { userId: string } }) => {
      await writes.admitPaperApplication({
        opportunityId: s.input.opportunityId,
        householdId: input.householdId,
        postmarkDate: input.postmarkDate,
        householdSize: input.householdSize,
        householdIncome: input.householdIncome,
        formDocumentId: input.formDocumentId,
        enteredBy: input.actor.userId,
        groups: input.groups,
      });
    },
    resolveDuplicate: async (_s, input: LotteryInputs['ResolveDuplicate'] & { actor: { userId: string } }) => {
      await writes.resolveDuplicate({ pairId: input.pairId, keep: input.keep, reason: input.reason, decidedBy: input.actor.userId });
    },
  },
  work: (s) => {
    const next = lotteryWork(s);
    if (next === 'freeze') return async (ctx) => recordFreeze(s, await writes.freezeLotteryList({ opportunityId: s.input.opportunityId }), ctx.now);
    if (next === 'draw') {
      return async (ctx) => {
        let drawn;
        try {
          drawn = await draw.drawLottery({ opportunityId: s.input.opportunityId, publicValue: s.publicValue ?? '' });
        } catch (error) {
          if (!listChanged(error)) throw error;
          refuseDraw(s, ctx.now, 'the list changed after it was frozen');
          return;
        }
        recordDraw(s, drawn);
        s.history.push({ at: ctx.now, action: 'Drawn', by: 'system', note: `${s.draw?.entries ?? 0} entries, result SHA-256 ${s.draw?.resultHash ?? ''}` });
        // The drawn list becomes a waitlist that asks its households every few months. Lotteries
        // drawn before check-ins existed replay without it (their waitlist is started when a
        // manager sets its check-in months).
        if (patched(WAITLIST_CHECK_INS_PATCH)) await startWaitlist(s.input.opportunityId, ctx.now);
      };
    }
    if (next === 'invite') return (ctx) => invite(s, ctx.now);
    return null;
  },
};

/**
 * One opportunity's lottery: applications until the deadline (paper ones by postmark through the
 * mail grace period), the list frozen and its hash published, the draw, invitations in rank order in
 * batches, the next in line when a household gives its place back, and `filled` with the waitlist
 * kept for re-rentals. The list and ranks stay in PostgreSQL; the history holds counts and hashes,
 * and continues as new when long.
 */
export async function lottery(input: StartLotteryInput, carried?: CarriedLotteryState): Promise<string> {
  const state = carried ? upgradeLotteryState(carried) : initialLotteryState(input, new Date(Date.now()).toISOString());
  const s = await runCase(lotteryCase, state, {
    start: carried ? undefined : (st, ctx) => startLotteryTimers(st, ctx),
    continueAsNew: (st) => continueAsNew<typeof lottery>(input, st),
  });
  log.info('lottery finished', { workflowId: workflowInfo().workflowId, stage: s.stage });
  return s.stage;
}
