import { actionsOf, availableActions, tasksOf, type ActionTable, type CaseTimer, type ChangeContext } from './case';
import { addMonthsUtc } from './calendar';
import type { MessageCode } from './messages';
import { DAY } from './time';
import {
  MOVING_SLOT_WEEKDAYS,
  RELOCATION_INPUTS,
  RELOCATION_MONTHS,
  RELOCATION_REMINDER_DAYS,
  UNDER_RELOCATION,
  type MovingSlot,
  type RelocationInputs,
  type RelocationManagerAction,
  type RelocationTenantAction,
  type RelocationOffer,
  type RelocationStatus,
  type RelocationView,
  type StartRelocationInput,
} from './relocation';

/** The state of one temporary relocation: plain data, read and changed by the table below only. */
export interface RelocationState {
  readonly input: StartRelocationInput;
  readonly startedAt: string;
  status: RelocationStatus;
  profileSubmitted: boolean;
  offers: RelocationOffer[];
  slots: MovingSlot[];
  bookedSlot: MovingSlot | null;
  movedAt: string | null;
  endsAt: string | null;
  returnedAt: string | null;
  extensions: RelocationView['extensions'];
  remindersSent: RelocationView['remindersSent'];
  /** Grows when the end date changes; timers set for an older end date no longer count. */
  endEpoch: number;
  version: number;
  updatedAt: string;
  history: NonNullable<RelocationView['history']>;
  timers: CaseTimer[];
}

export function initialRelocationState(input: StartRelocationInput, now: string): RelocationState {
  return {
    input,
    startedAt: now,
    status: 'awaiting_profile',
    profileSubmitted: false,
    offers: [],
    slots: [],
    bookedSlot: null,
    movedAt: null,
    endsAt: null,
    returnedAt: null,
    extensions: [],
    remindersSent: [],
    endEpoch: 0,
    version: 1,
    updatedAt: now,
    history: [{ at: now, action: 'Start', by: 'manager', note: input.reason }],
    timers: [],
  };
}

/** The next weekdays after `now`, at 14:00 and 18:00 UTC (9 am and 1 pm in New York in winter). */
export function movingSlots(now: string): MovingSlot[] {
  const slots: MovingSlot[] = [];
  const start = Date.parse(now.slice(0, 10));
  for (let day = 1; slots.length < MOVING_SLOT_WEEKDAYS * 2; day++) {
    const date = new Date(start + day * DAY);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const ymd = date.toISOString().slice(0, 10);
    slots.push({ slotId: `${ymd}-am`, startsAt: `${ymd}T14:00:00.000Z` }, { slotId: `${ymd}-pm`, startsAt: `${ymd}T18:00:00.000Z` });
  }
  return slots;
}

const nowIso = (now: number) => new Date(now).toISOString();
const openOffer = (o: RelocationOffer, now: number) => o.state === 'open' && !(o.expiresAt && o.expiresAt <= nowIso(now));
const offerFor = (s: RelocationState, offerId: string) => s.offers.find((o) => o.offerId === offerId);
const inStatus = (s: RelocationState, ...statuses: RelocationStatus[]): MessageCode | null => (statuses.includes(s.status) ? null : 'actionNotAllowedNow');
const respond = {
  when: (s: RelocationState, now: number) => inStatus(s, 'offered') ?? (s.offers.some((o) => openOffer(o, now)) ? null : 'offerNotOpen'),
  check: (s: RelocationState, input: { offerId: string }, now: number): MessageCode | null => {
    const offer = offerFor(s, input.offerId);
    return offer && openOffer(offer, now) ? null : 'offerNotOpen';
  },
};

/** A new end of the stay: reminders 30, 14 and 7 days before it, then the overdue escalation. */
function setEnd(s: RelocationState, endsAt: string, ctx: ChangeContext): void {
  s.endsAt = endsAt;
  s.endEpoch += 1;
  for (const days of RELOCATION_REMINDER_DAYS) {
    const at = Date.parse(endsAt) - days * DAY;
    if (at > Date.parse(ctx.now)) ctx.timer('Reminder', nowIso(at), `end-${s.endEpoch}-${days}`);
  }
  ctx.timer('Overdue', endsAt, `end-${s.endEpoch}`);
}

/** One temporary relocation (shared/design/workflows.md "Relocation"; spec section 9: up to 6 months). */
export const RELOCATION_TABLE = {
  SubmitProfile: {
    by: 'tenant',
    input: RELOCATION_INPUTS.SubmitProfile,
    when: (s) => inStatus(s, 'awaiting_profile'),
    // Submitting the profile for a relocation needs it complete (spec section 4: complete means 100).
    check: (_s, input) => (input.profileCompletion >= 100 ? null : 'profileIncomplete'),
    change: (s) => {
      s.profileSubmitted = true;
      s.status = 'awaiting_offer';
    },
    task: {},
  },
  AcceptOffer: {
    by: 'tenant',
    input: RELOCATION_INPUTS.AcceptOffer,
    ...respond,
    change: (s, input, ctx) => {
      for (const o of s.offers) if (o.offerId === input.offerId) o.state = 'accepted';
      s.slots = movingSlots(ctx.now);
      s.status = 'scheduling';
    },
    task: {},
    irreversible: true,
  },
  DeclineOffer: {
    by: 'tenant',
    input: RELOCATION_INPUTS.DeclineOffer,
    ...respond,
    change: (s, input) => {
      for (const o of s.offers) if (o.offerId === input.offerId) o.state = 'declined';
      s.status = 'awaiting_offer';
    },
    irreversible: true,
  },
  BookSlot: {
    by: 'tenant',
    input: RELOCATION_INPUTS.BookSlot,
    when: (s) => inStatus(s, 'scheduling', 'moving_booked'),
    check: (s, input, now) => (s.slots.some((slot) => slot.slotId === input.slotId && slot.startsAt > nowIso(now)) ? null : 'slotNotAvailable'),
    change: (s, input) => {
      s.bookedSlot = s.slots.find((slot) => slot.slotId === input.slotId) ?? null;
      s.status = 'moving_booked';
    },
    task: {},
  },
  OfferTemporaryUnit: {
    by: 'manager',
    input: RELOCATION_INPUTS.OfferTemporaryUnit,
    when: (s) => inStatus(s, 'awaiting_offer'),
    change: (s, input, ctx) => {
      s.offers.push({ offerId: `${s.input.relocationId}.${s.offers.length + 1}`, unit: input.unit, offeredAt: ctx.now, expiresAt: input.expiresAt ?? null, state: 'open' });
      s.status = 'offered';
    },
    task: {},
  },
  ConfirmMove: {
    by: 'manager',
    input: RELOCATION_INPUTS.ConfirmMove,
    when: (s) => inStatus(s, 'moving_booked'),
    change: (s, _input, ctx) => {
      s.movedAt = ctx.now;
      s.status = 'relocated';
      setEnd(s, addMonthsUtc(ctx.now, RELOCATION_MONTHS), ctx);
    },
    task: {},
  },
  ExtendRelocation: {
    by: 'manager',
    input: RELOCATION_INPUTS.ExtendRelocation,
    when: (s) => inStatus(s, ...UNDER_RELOCATION),
    check: (s, input) => (`${input.until}T23:59:59.999Z` > (s.endsAt ?? '') ? null : 'invalidExtension'),
    change: (s, input, ctx) => {
      s.extensions.push({ until: input.until, reason: input.reason ?? '', at: ctx.now });
      s.status = 'relocated';
      setEnd(s, `${input.until}T23:59:59.999Z`, ctx);
    },
    reason: true,
  },
  ConfirmReturn: {
    by: 'manager',
    input: RELOCATION_INPUTS.ConfirmReturn,
    when: (s) => inStatus(s, ...UNDER_RELOCATION),
    change: (s, _input, ctx) => {
      s.returnedAt = ctx.now;
      s.status = 'returned';
    },
    // The manager's standing option while relocated becomes a task once the stay is over.
    task: { when: (s) => s.status === 'overdue', due: (s) => s.endsAt, overdue: (s) => s.status === 'overdue' },
  },
} satisfies ActionTable<RelocationState, RelocationInputs, 'tenant' | 'manager'> & Record<RelocationTenantAction, { by: 'tenant' }> & Record<RelocationManagerAction, { by: 'manager' }>;

export const RELOCATION_ACTIONS = actionsOf(RELOCATION_TABLE);
export const RELOCATION_TENANT_ACTIONS = RELOCATION_ACTIONS.filter((a): a is RelocationTenantAction => RELOCATION_TABLE[a].by === 'tenant');
export const RELOCATION_MANAGER_ACTIONS = RELOCATION_ACTIONS.filter((a): a is RelocationManagerAction => RELOCATION_TABLE[a].by === 'manager');

export const isFinalRelocation = (s: Pick<RelocationState, 'status'>) => s.status === 'returned';
export function relocationFinished(s: Pick<RelocationState, 'status'>): MessageCode | null {
  return isFinalRelocation(s) ? 'relocationEnded' : null;
}

/** A timer of the stay fired: a reminder before the end, or the end itself (overdue: escalated, tenant told). */
export function fireRelocationTimer(s: RelocationState, timer: CaseTimer, ctx: ChangeContext): boolean {
  const [, epoch, days] = timer.token.split('-');
  if (Number(epoch) !== s.endEpoch || !s.endsAt || !UNDER_RELOCATION.includes(s.status)) return false;
  const { relocationId, tenantUserId } = s.input;
  const notice = (template: 'relocation-reminder' | 'relocation-overdue', daysBefore: number) =>
    ctx.notify({
      userId: tenantUserId,
      template,
      params: { daysBefore, endsAt: s.endsAt ?? '' },
      dedupeKey: `relocation:${relocationId}:${template}:${(s.endsAt ?? '').slice(0, 10)}:${daysBefore}`,
    });
  if (timer.event === 'Reminder') {
    s.remindersSent.push({ daysBefore: Number(days), endsAt: s.endsAt, sentAt: ctx.now });
    notice('relocation-reminder', Number(days));
    return true;
  }
  if (timer.event === 'Overdue' && s.status !== 'overdue') {
    s.status = 'overdue';
    notice('relocation-overdue', 0);
    return true;
  }
  return false;
}

export function relocationView(s: RelocationState, now: number): RelocationView {
  const available = availableActions(RELOCATION_TABLE, ['tenant', 'manager'], s, now, relocationFinished);
  return {
    relocationId: s.input.relocationId,
    householdId: s.input.householdId,
    organizationId: s.input.organizationId,
    tenantUserId: s.input.tenantUserId,
    reason: s.input.reason,
    status: s.status,
    profileSubmitted: s.profileSubmitted,
    // An open offer past its expiry shows as expired (the table already refuses it).
    offers: s.offers.map((o) => ({ ...o, state: o.state === 'open' && !openOffer(o, now) ? 'expired' : o.state })),
    slots: [...s.slots],
    bookedSlot: s.bookedSlot,
    movedAt: s.movedAt,
    endsAt: s.endsAt,
    extensions: [...s.extensions],
    remindersSent: [...s.remindersSent],
    returnedAt: s.returnedAt,
    underRelocation: UNDER_RELOCATION.includes(s.status),
    pendingTasks: tasksOf(RELOCATION_TABLE, available, s),
    availableActions: { tenant: available.tenant as RelocationTenantAction[], manager: available.manager as RelocationManagerAction[] },
    history: [...s.history],
    startedAt: s.startedAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}
