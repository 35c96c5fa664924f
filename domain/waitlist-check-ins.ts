import { z } from 'zod';
import { DAY } from './time';
import { CHECK_IN_ANSWER_DAYS, CHECK_IN_REMINDER_DAYS, MAX_CHECK_IN_MONTHS, MIN_CHECK_IN_MONTHS, RESTORE_PLACE_DAYS, WAITLIST_STATES, type WaitlistState } from './waitlist';

/**
 * The check-in cycle of one waitlist (domain/waitlist.ts holds its states and day counts): on the
 * cycle's day every active waitlisted household is asked; a reminder goes 14 days later; 30 days
 * after the question, a household that did not answer becomes inactive; 30 days after that, one that
 * did not restore its place is removed. The next cycle starts N months after this one, never before
 * this one's removals are done (so a one-month setting still gives every household its full windows).
 */
export interface CheckInCycleDates {
  askAt: number;
  remindAt: number;
  inactiveAt: number;
  removeAt: number;
  nextAskAt: number;
}

/** A calendar month later in UTC, the day clamped to the month's length (31 January + 1 month = 28/29 February). */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}

export function checkInCycleDates(askAt: number, months: number): CheckInCycleDates {
  const remindAt = askAt + CHECK_IN_REMINDER_DAYS * DAY;
  const inactiveAt = askAt + CHECK_IN_ANSWER_DAYS * DAY;
  const removeAt = inactiveAt + RESTORE_PLACE_DAYS * DAY;
  return { askAt, remindAt, inactiveAt, removeAt, nextAskAt: Math.max(addMonths(askAt, months), removeAt) };
}

/** The first check-in of a waitlist: N months after its draw (every household has just said it wants a home). */
export const firstAskAt = (drawnAt: number, months: number): number => addMonths(drawnAt, months);

/** One Temporal workflow per waitlist; its id names the opportunity only. */
export const waitlistWorkflowId = (opportunityId: string): string => `waitlist/${opportunityId}`;

/**
 * Why a household's place changed (public codes: shown to the household and the manager, never a
 * free text). A manager's own words for a restore are kept beside the change, for staff only.
 */
export const WAITLIST_CHANGE_REASONS = ['no_answer', 'not_restored', 'restored_by_household', 'restored_by_manager', 'returned_letter'] as const;
export type WaitlistChangeReason = (typeof WAITLIST_CHANGE_REASONS)[number];

/** How a household answered a check-in. */
export const CHECK_IN_CHANNELS = ['link', 'account', 'sms', 'letter', 'restore'] as const;
export type CheckInChannel = (typeof CHECK_IN_CHANNELS)[number];

/** Households handled per activity call of the waitlist workflow: one short transaction each. */
export const WAITLIST_BATCH = 200;

/** A bedroom type a household may decline ("studio", "1 bedroom", ...: the unit's own label). */
export const BedroomType = z.string().trim().min(1).max(40);
export const DeclineSizesBody = z.object({ declined: z.array(BedroomType).max(10) });
export type DeclineSizesBody = z.infer<typeof DeclineSizesBody>;

/** A check-in link's token: 32 random bytes, base64url. */
export const CheckInToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid link');
export const CheckInTokenBody = z.object({ token: CheckInToken });

export const ManagerRestoreBody = z.object({ reason: z.string().trim().min(3).max(500) });
export const CheckInMonthsBody = z.object({ months: z.number().int().min(MIN_CHECK_IN_MONTHS).max(MAX_CHECK_IN_MONTHS) });

/** What the household's own page shows for one lottery ("Where I stand"). */
export interface WaitlistStanding {
  applicationId: string;
  opportunityId: string;
  opportunityName: string;
  rank: number;
  groupPositions: Record<string, number>;
  /** Among the households of this lottery still waiting and active, how many are ahead plus one; null when not active. */
  activePosition: number | null;
  activeTotal: number;
  state: WaitlistState;
  stateAt: string | null;
  stateReason: string | null;
  lastConfirmedAt: string | null;
  /** While a check-in is open: the day its answer is due; otherwise the day of the next question. */
  nextDueAt: string | null;
  checkInOpen: boolean;
  /** Until when an inactive household can restore its place itself. */
  restoreUntil: string | null;
  declinedBedroomTypes: string[];
  bedroomTypes: string[];
  /** What happens next, as a message code the page words in the household's language. */
  next: 'confirm_now' | 'restore_now' | 'wait_for_check_in' | 'removed';
}

/** One row of the manager's waitlist view: no name, the log number identifies the household to staff. */
export interface WaitlistRow {
  applicationId: string;
  logNumber: string | null;
  rank: number;
  state: WaitlistState;
  stateAt: string | null;
  stateReason: string | null;
  lastConfirmedAt: string | null;
  nextDueAt: string | null;
  checkInOpen: boolean;
  declinedBedroomTypes: string[];
  changes: { at: string; state: WaitlistState; reason: string; note: string | null }[];
}

export const WaitlistFilter = z.enum(WAITLIST_STATES);

/**
 * Whether a household may restore its own place now: inactive, before its restore deadline (the
 * cycle's removal day, 30 days after it became inactive, counted from the question it did not answer).
 */
export const canRestoreItself = (state: WaitlistState, askedAt: number | null, now: number): boolean =>
  state === 'inactive' && askedAt !== null && now < checkInCycleDates(askedAt, 1).removeAt;
