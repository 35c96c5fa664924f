import { actionsOf, availableActions, type ActionTable, type CaseTimer, type ChangeContext } from './case';
import type { MessageCode } from './messages';
import {
  LOTTERY_INPUTS,
  applicationsCloseAt,
  type InvitationBatch,
  type LotteryDrawSummary,
  type LotteryInputs,
  type LotteryManagerAction,
  type LotteryRole,
  type LotteryStage,
  type LotteryView,
  type StartLotteryInput,
} from './lottery';

/** The state of one opportunity's lottery: counts and published values only, never the list itself. */
export interface LotteryState {
  readonly input: StartLotteryInput;
  stage: LotteryStage;
  deadline: string;
  publicValue: string | null;
  draw: LotteryDrawSummary | null;
  paused: boolean;
  pendingInvitations: number;
  /** Why each pending invitation was asked for, oldest first (released places name their cause). */
  pendingBecause: string[];
  invited: number;
  skipped: number;
  waitlist: number | null;
  /** The latest invitation batches (older ones are in the application rows). */
  batches: InvitationBatch[];
  /** Applications whose released place has invited someone: a place is given back once. */
  released: string[];
  version: number;
  updatedAt: string;
  history: { at: string; action: string; by: string; note?: string }[];
  timers: CaseTimer[];
}

const KEEP_BATCHES = 20;
const KEEP_HISTORY = 200;

export function initialLotteryState(input: StartLotteryInput, now: string): LotteryState {
  return {
    input,
    stage: 'accepting',
    deadline: input.deadline,
    publicValue: null,
    draw: null,
    paused: false,
    pendingInvitations: 0,
    pendingBecause: [],
    invited: 0,
    skipped: 0,
    waitlist: null,
    batches: [],
    released: [],
    version: 1,
    updatedAt: now,
    history: [{ at: now, action: 'Publish', by: 'manager', note: `seed SHA-256 ${input.seedHash}` }],
    timers: [],
  };
}

/** Applications close at the end of the deadline day; a later deadline arms a new timer (the old one no longer counts). */
export function startLotteryTimers(s: LotteryState, ctx: ChangeContext): void {
  ctx.timer('ApplicationsClosed', applicationsCloseAt(s.deadline), s.deadline);
}

const inStage = (s: LotteryState, ...stages: LotteryStage[]): MessageCode | null => (stages.includes(s.stage) ? null : 'actionNotAllowedNow');
const ask = (s: LotteryState, count: number, because: string) => {
  s.pendingInvitations += count;
  for (let i = 0; i < Math.min(count, KEEP_BATCHES); i++) s.pendingBecause.push(because);
  s.pendingBecause = s.pendingBecause.slice(-KEEP_BATCHES);
};

export const LOTTERY_TABLE = {
  ExtendDeadline: {
    by: 'manager',
    input: LOTTERY_INPUTS.ExtendDeadline,
    when: (s, now) => inStage(s, 'accepting') ?? (Date.parse(applicationsCloseAt(s.deadline)) > now ? null : 'actionNotAllowedNow'),
    check: (s, input) => (input.deadline > s.deadline ? null : 'deadlineNotLater'),
    change: (s, input, ctx) => {
      s.deadline = input.deadline;
      startLotteryTimers(s, ctx);
    },
  },
  Draw: {
    by: 'manager',
    input: LOTTERY_INPUTS.Draw,
    when: (s) => inStage(s, 'closed'),
    // The draw itself runs as the case's next piece of work (an activity over PostgreSQL).
    change: (s, input) => {
      s.publicValue = input.publicValue;
      s.stage = 'drawing';
    },
    task: {},
    irreversible: true,
  },
  InviteNext: {
    by: 'manager',
    input: LOTTERY_INPUTS.InviteNext,
    when: (s) => inStage(s, 'drawn') ?? (s.paused ? 'invitationsPaused' : null) ?? (s.waitlist === 0 ? 'waitlistEmpty' : null),
    change: (s, input, ctx) => ask(s, input.count, `manager ${ctx.now.slice(0, 10)}: ${input.count}`),
    task: { when: (s) => s.invited === 0 && s.pendingInvitations === 0 },
  },
  PauseInvitations: {
    by: 'manager',
    input: LOTTERY_INPUTS.PauseInvitations,
    when: (s) => inStage(s, 'drawn') ?? (s.paused ? 'actionNotAllowedNow' : null),
    change: (s) => {
      s.paused = true;
    },
  },
  ResumeInvitations: {
    by: 'manager',
    input: LOTTERY_INPUTS.ResumeInvitations,
    when: (s) => inStage(s, 'drawn') ?? (s.paused ? null : 'actionNotAllowedNow'),
    change: (s) => {
      s.paused = false;
    },
  },
  Close: {
    by: 'manager',
    input: LOTTERY_INPUTS.Close,
    when: (s) => inStage(s, 'accepting', 'closed', 'drawn'),
    // The ranked households not invited stay on the list as the waitlist for re-rentals.
    change: (s) => {
      s.stage = 'closed_out';
      s.pendingInvitations = 0;
      s.pendingBecause = [];
    },
    reason: true,
    irreversible: true,
  },
  UnitReleased: {
    by: 'system',
    input: LOTTERY_INPUTS.UnitReleased,
    when: (s) => inStage(s, 'drawn'),
    check: (s, input) => (s.released.includes(input.applicationId) ? 'actionNotAllowedNow' : null),
    change: (s, input) => {
      s.released.push(input.applicationId);
      ask(s, 1, `${input.why} ${input.applicationId}`);
    },
  },
} satisfies ActionTable<LotteryState, LotteryInputs, LotteryRole>;

export const LOTTERY_ACTIONS = actionsOf(LOTTERY_TABLE);
/** Actions sent by other workflows as Signals (a workflow cannot send another an Update). */
export const LOTTERY_SIGNALS = ['UnitReleased'] as const;

export function lotteryFinished(s: LotteryState): MessageCode | null {
  return s.stage === 'closed_out' ? 'lotteryClosed' : null;
}

export function isFinalLottery(s: LotteryState): boolean {
  return s.stage === 'closed_out';
}

export function fireLotteryTimer(s: LotteryState, timer: CaseTimer): boolean | string {
  if (timer.event !== 'ApplicationsClosed' || s.stage !== 'accepting' || timer.token !== s.deadline) return false;
  s.stage = 'closed';
  return `deadline ${s.deadline}`;
}

/** What the case does next by itself: draw once asked, then invite while invitations are owed. */
export function lotteryWork(s: LotteryState): 'draw' | 'invite' | null {
  if (s.stage === 'drawing') return 'draw';
  if (s.stage === 'drawn' && !s.paused && s.pendingInvitations > 0 && s.waitlist !== 0) return 'invite';
  return null;
}

/** Records a drawn lottery. */
export function recordDraw(s: LotteryState, draw: LotteryDrawSummary): void {
  s.draw = draw;
  s.waitlist = draw.entries;
  s.stage = 'drawn';
}

/** Records one invitation batch; an empty waitlist cancels what is still owed. */
export function recordBatch(s: LotteryState, batch: { invited: number; skipped: number; waitlist: number }, at: string): void {
  const because = s.pendingBecause.splice(0, Math.max(1, batch.invited)).filter((b, i, all) => all.indexOf(b) === i).join('; ');
  s.pendingInvitations = batch.waitlist === 0 ? 0 : Math.max(0, s.pendingInvitations - batch.invited);
  if (s.pendingInvitations === 0) s.pendingBecause = [];
  s.invited += batch.invited;
  s.skipped += batch.skipped;
  s.waitlist = batch.waitlist;
  s.batches = [...s.batches, { at, invited: batch.invited, skipped: batch.skipped, because }].slice(-KEEP_BATCHES);
  s.history = s.history.slice(-KEEP_HISTORY);
}

export function lotteryView(s: LotteryState, now: number): LotteryView {
  return {
    opportunityId: s.input.opportunityId,
    organizationId: s.input.organizationId,
    stage: s.stage,
    deadline: s.deadline,
    units: s.input.units,
    seedHash: s.input.seedHash,
    publicValue: s.publicValue,
    draw: s.draw,
    paused: s.paused,
    pendingInvitations: s.pendingInvitations,
    invited: s.invited,
    skipped: s.skipped,
    waitlist: s.waitlist,
    batches: s.batches,
    availableActions: availableActions(LOTTERY_TABLE, ['manager'], s, now, lotteryFinished) as { manager: LotteryManagerAction[] },
    version: s.version,
    updatedAt: s.updatedAt,
    history: s.history,
  };
}
