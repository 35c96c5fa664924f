import { actionsOf, availableActions, type ActionTable, type CaseTimer, type ChangeContext } from './case';
import type { MessageCode } from './messages';
import {
  LOTTERY_INPUTS,
  applicationsCloseAt,
  listFreezesAt,
  type InvitationBatch,
  type LotteryFreeze,
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
  /** The list as frozen at the end of the mail grace period (lotteries started with one). */
  frozen: LotteryFreeze | null;
  /** The grace period is over (or the manager asked again): the case freezes the list as its next work. */
  freezeDue: boolean;
  /** Undecided duplicate pairs that stopped the last attempt to freeze (log numbers). */
  freezeBlockedBy: string[];
  paperEntries: number;
  /** Leased units given back for re-rental: the lottery is filled when leases reach units plus these. */
  reopened: string[];
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
type AddedLater = 'pendingReasons' | 'leased' | 'frozen' | 'freezeDue' | 'freezeBlockedBy' | 'paperEntries' | 'reopened';
export type CarriedLotteryState = Omit<LotteryState, AddedLater> & Partial<Pick<LotteryState, AddedLater>> & { pendingBecause?: string[] };

export function upgradeLotteryState(carried: CarriedLotteryState): LotteryState {
  const { pendingBecause, ...rest } = carried;
  // Runs before per-invitation reasons kept at most 20 reasons for all that was pending: the oldest names them all.
  const pendingReasons = carried.pendingReasons ?? (carried.pendingInvitations > 0 ? [{ because: pendingBecause?.[0] ?? 'manager', count: carried.pendingInvitations }] : []);
  return {
    ...rest,
    pendingReasons,
    leased: carried.leased ?? [],
    frozen: carried.frozen ?? null,
    freezeDue: carried.freezeDue ?? false,
    freezeBlockedBy: carried.freezeBlockedBy ?? [],
    paperEntries: carried.paperEntries ?? 0,
    reopened: carried.reopened ?? [],
  };
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
    frozen: null,
    freezeDue: false,
    freezeBlockedBy: [],
    paperEntries: 0,
    reopened: [],
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

/**
 * Applications close at the end of the deadline day, and the list freezes at the end of the mail
 * grace period; a later deadline arms new timers (the old ones no longer count).
 */
export function startLotteryTimers(s: LotteryState, ctx: ChangeContext): void {
  ctx.timer('ApplicationsClosed', applicationsCloseAt(s.deadline), s.deadline);
  if (s.input.mailGraceDays !== undefined) ctx.timer('ListFreezes', listFreezesAt(s.deadline, s.input.mailGraceDays), s.deadline);
}

/** A lottery started with a mail grace period freezes its list before the draw (older runs do not). */
const freezes = (s: LotteryState) => s.input.mailGraceDays !== undefined;
const freezeAt = (s: LotteryState) => Date.parse(listFreezesAt(s.deadline, s.input.mailGraceDays ?? 0));
/** Before the list freezes: online until the deadline, paper until the end of the grace period. */
const beforeFreeze = (s: LotteryState, now: number): MessageCode | null =>
  !freezes(s) || s.frozen || !(s.stage === 'accepting' || s.stage === 'closed') || now >= freezeAt(s) ? 'actionNotAllowedNow' : null;
const today = (now: number) => new Date(now).toISOString().slice(0, 10);

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
  EnterPaperApplication: {
    by: 'manager',
    input: LOTTERY_INPUTS.EnterPaperApplication,
    when: (s, now) => beforeFreeze(s, now),
    check: (s, input, now) => (input.postmarkDate > s.deadline ? 'postmarkAfterDeadline' : input.postmarkDate > today(now) ? 'postmarkInFuture' : null),
    // The application's row, log number and groups are written by the effect; the draw never reads the channel.
    change: (s) => {
      s.paperEntries += 1;
    },
    effect: 'admitPaperApplication',
  },
  ResolveDuplicate: {
    by: 'manager',
    input: LOTTERY_INPUTS.ResolveDuplicate,
    // Also after the grace period while the freeze waits for this decision.
    when: (s) => (freezes(s) && !s.frozen && (s.stage === 'accepting' || s.stage === 'closed') ? null : 'actionNotAllowedNow'),
    // Decided after the grace period: the freeze is tried again (it names any pair still undecided).
    change: (s, _input, ctx) => {
      s.freezeBlockedBy = [];
      if (s.stage === 'closed' && Date.parse(ctx.now) >= freezeAt(s)) s.freezeDue = true;
    },
    effect: 'resolveDuplicate',
    reason: true,
    irreversible: true,
  },
  FreezeList: {
    by: 'manager',
    input: LOTTERY_INPUTS.FreezeList,
    when: (s, now) => inStage(s, 'closed') ?? (freezes(s) && !s.frozen && !s.freezeDue && now >= freezeAt(s) ? null : 'actionNotAllowedNow'),
    change: (s) => {
      s.freezeDue = true;
    },
  },
  Draw: {
    by: 'manager',
    input: LOTTERY_INPUTS.Draw,
    when: (s) => inStage(s, 'closed') ?? (freezes(s) && !s.frozen ? 'listNotFrozen' : null),
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
    when: (s) => inStage(s, 'accepting', 'closed', 'drawn', 'filled'),
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
      if (s.leased.length < s.input.units + s.reopened.length) return;
      // A lottery with a freeze keeps its ranked waitlist for re-rentals; closing is the manager's Close.
      if (freezes(s)) {
        s.stage = 'filled';
        s.pendingInvitations = 0;
        s.pendingReasons = [];
      } else closeOut(s);
      s.history.push({ at: ctx.now, action: 'AllUnitsLeased', by: 'system', note: `${s.leased.length - s.reopened.length} of ${s.input.units} units leased` });
    },
  },
  UnitReopened: {
    by: 'manager',
    input: LOTTERY_INPUTS.UnitReopened,
    when: (s) => inStage(s, 'filled') ?? (s.waitlist === 0 ? 'waitlistEmpty' : null),
    change: (s, input) => {
      s.reopened.push(input.unit);
      s.stage = 'drawn';
      ask(s, 1, `reopened ${input.unit}`);
    },
  },
} satisfies ActionTable<LotteryState, LotteryInputs, LotteryRole, LotteryEffect>;

/** The side effects of paper entry and duplicate decisions, run by the workflow with its activities. */
export type LotteryEffect = 'admitPaperApplication' | 'resolveDuplicate';

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
  if (timer.token !== s.deadline) return false;
  if (timer.event === 'ListFreezes') {
    if (!freezes(s) || s.frozen || !(s.stage === 'accepting' || s.stage === 'closed')) return false;
    s.stage = 'closed';
    s.freezeDue = true;
    return `mail grace period over (${s.input.mailGraceDays ?? 0} days)`;
  }
  if (timer.event !== 'ApplicationsClosed' || s.stage !== 'accepting') return false;
  s.stage = 'closed';
  return `deadline ${s.deadline}`;
}

/** What the case does next by itself: freeze the list when due, draw once asked, then invite while invitations are owed. */
export function lotteryWork(s: LotteryState): 'freeze' | 'draw' | 'invite' | null {
  if (s.stage === 'closed' && s.freezeDue && !s.frozen) return 'freeze';
  if (s.stage === 'drawing') return 'draw';
  if (s.stage === 'drawn' && !s.paused && s.pendingInvitations > 0 && s.waitlist !== 0) return 'invite';
  return null;
}

/** Records the freeze's outcome: the list frozen, or the undecided pairs that stop it (the manager decides them, then freezes). */
export function recordFreeze(s: LotteryState, outcome: { frozen: LotteryFreeze } | { undecidedPairs: string[] }, at: string): void {
  s.freezeDue = false;
  if ('frozen' in outcome) {
    s.frozen = outcome.frozen;
    s.freezeBlockedBy = [];
    s.history.push({ at, action: 'ListFrozen', by: 'system', note: `${outcome.frozen.entries} entries, list SHA-256 ${outcome.frozen.listHash}` });
    return;
  }
  s.freezeBlockedBy = outcome.undecidedPairs;
  s.history.push({ at, action: 'FreezeWaits', by: 'system', note: `undecided duplicate pairs: ${outcome.undecidedPairs.join(', ')}` });
}

/** A draw the activity refused (the list changed after it froze): back to closed, nothing published. */
export function refuseDraw(s: LotteryState, at: string, why: string): void {
  s.stage = 'closed';
  s.publicValue = null;
  s.history.push({ at, action: 'DrawRefused', by: 'system', note: why });
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
    listFreezesAt: s.input.mailGraceDays === undefined ? null : listFreezesAt(s.deadline, s.input.mailGraceDays),
    frozen: s.frozen,
    freezeBlockedBy: s.freezeBlockedBy,
    paperEntries: s.paperEntries,
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
