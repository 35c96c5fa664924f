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
  /**
   * Why the pending invitations were asked for, oldest first, as runs (a manager's batch of 1,000 is
   * one entry; each released place its own), so each invitation carries its own reason.
   */
  pendingReasons: PendingReason[];
  invited: number;
  skipped: number;
  waitlist: number | null;
  /** The latest invitation batches (older ones are in the application rows). */
  batches: InvitationBatch[];
  /** Applications whose released place has invited someone: a place is given back once. */
  released: string[];
  /** Applications whose lease is signed: each counts once; the last unit leased closes the lottery. */
  leased: string[];
  version: number;
  updatedAt: string;
  history: { at: string; action: string; by: string; note?: string }[];
  timers: CaseTimer[];
}

/** `count` pending invitations asked for for one reason. */
export interface PendingReason {
  because: string;
  count: number;
}

/** A state carried over by continue-as-new from an earlier version of this code, brought up to date. */
export type CarriedLotteryState = Omit<LotteryState, 'pendingReasons' | 'leased'> & Partial<Pick<LotteryState, 'pendingReasons' | 'leased'>> & { pendingBecause?: string[] };

export function upgradeLotteryState(carried: CarriedLotteryState): LotteryState {
  const { pendingBecause, ...rest } = carried;
  // Runs before per-invitation reasons kept at most 20 reasons for all that was pending: the oldest names them all.
  const pendingReasons = carried.pendingReasons ?? (carried.pendingInvitations > 0 ? [{ because: pendingBecause?.[0] ?? 'manager', count: carried.pendingInvitations }] : []);
  return { ...rest, pendingReasons, leased: carried.leased ?? [] };
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
    pendingReasons: [],
    invited: 0,
    skipped: 0,
    waitlist: null,
    batches: [],
    released: [],
    leased: [],
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
  const last = s.pendingReasons.at(-1);
  if (last?.because === because) last.count += count;
  else s.pendingReasons.push({ because, count });
};
/** Closes the lottery: nothing more is invited; the ranked households not invited stay as the waitlist. */
const closeOut = (s: LotteryState) => {
  s.stage = 'closed_out';
  s.pendingInvitations = 0;
  s.pendingReasons = [];
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
    change: (s) => closeOut(s),
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
      ask(s, 1, `${input.why} ${input.logNumber ?? input.applicationId}`);
    },
  },
  UnitLeased: {
    by: 'system',
    input: LOTTERY_INPUTS.UnitLeased,
    when: (s) => inStage(s, 'drawn'),
    check: (s, input) => (s.leased.includes(input.applicationId) ? 'actionNotAllowedNow' : null),
    change: (s, input, ctx) => {
      s.leased.push(input.applicationId);
      if (s.leased.length < s.input.units) return;
      closeOut(s);
      s.history.push({ at: ctx.now, action: 'AllUnitsLeased', by: 'system', note: `${s.leased.length} of ${s.input.units} units leased` });
    },
  },
} satisfies ActionTable<LotteryState, LotteryInputs, LotteryRole>;

export const LOTTERY_ACTIONS = actionsOf(LOTTERY_TABLE);
/** Actions sent by other workflows as Signals (a workflow cannot send another an Update). */
export const LOTTERY_SIGNALS = ['UnitReleased', 'UnitLeased'] as const;

export function lotteryFinished(s: Pick<LotteryState, 'stage'>): MessageCode | null {
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

/** Why each of the next `count` invitations is made, in order (one reason per invitation). */
export function reasonsOfNext(s: LotteryState, count: number): string[] {
  const reasons: string[] = [];
  for (const r of s.pendingReasons) {
    for (let i = 0; i < r.count && reasons.length < count; i++) reasons.push(r.because);
    if (reasons.length === count) break;
  }
  while (reasons.length < count) reasons.push(s.pendingReasons.at(-1)?.because ?? 'manager');
  return reasons;
}

/** Takes `count` invitations off the front of the pending reasons; answers the distinct reasons taken. */
function takeReasons(s: LotteryState, count: number): string[] {
  const taken: string[] = [];
  let left = count;
  while (left > 0 && s.pendingReasons.length > 0) {
    const first = s.pendingReasons[0]!;
    if (!taken.includes(first.because)) taken.push(first.because);
    const used = Math.min(left, first.count);
    first.count -= used;
    left -= used;
    if (first.count === 0) s.pendingReasons.shift();
  }
  return taken;
}

/** Records one invitation batch; an empty waitlist cancels what is still owed. */
export function recordBatch(s: LotteryState, batch: { invited: number; skipped: number; waitlist: number }, at: string): void {
  const because = (batch.invited > 0 ? takeReasons(s, batch.invited) : reasonsOfNext(s, 1)).join('; ');
  s.pendingInvitations = batch.waitlist === 0 ? 0 : Math.max(0, s.pendingInvitations - batch.invited);
  if (s.pendingInvitations === 0) s.pendingReasons = [];
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
    leased: s.leased.length,
    waitlist: s.waitlist,
    batches: s.batches,
    availableActions: availableActions(LOTTERY_TABLE, ['manager'], s, now, lotteryFinished) as { manager: LotteryManagerAction[] },
    version: s.version,
    updatedAt: s.updatedAt,
    history: s.history,
  };
}
