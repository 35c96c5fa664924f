import type { PayFrequency } from './income';
import { DAY } from './time';

/**
 * Spec sections 5 and 9: pay stubs are "the last 6 consecutive". Each stub carries its pay date;
 * the stubs of one income must be distinct pay periods, one period apart with none skipped, the
 * newest within one period of today, none in the future, and at most 6 of them.
 */
export const PAY_STUB_COUNT = 6;

export const PAY_STUB_MESSAGES = {
  payDateRequired: 'Enter the pay date of each pay stub',
  notConsecutive: 'Pay stubs must be consecutive: no pay period may be missing or repeated',
  notRecent: 'Pay stubs must be the most recent ones: the newest is more than one pay period old',
  futureDate: 'A pay date cannot be in the future',
} as const;

/** Days between two pay dates in a row, per pay frequency (a few days of slack for holidays). */
const GAP_DAYS: Record<PayFrequency, readonly [number, number]> = {
  weekly: [5, 9],
  bi_weekly: [12, 16],
  semimonthly: [12, 19],
  monthly: [26, 35],
  // The rate says nothing of the pay schedule: any regular period from a week to a month.
  hourly: [5, 35],
  annually: [5, 35],
  quarterly: [5, 35],
  one_time: [5, 35],
};

const toDay = (iso: string) => Math.round(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY);

/**
 * The problem with this set of pay dates (every stub of one income: those on file and those being
 * added), or null when they are the last consecutive ones. `today` is injected (YYYY-MM-DD).
 */
export function payStubProblem(payDates: readonly (string | null | undefined)[], frequency: PayFrequency | null, today: string): string | null {
  if (payDates.some((d) => !d || !/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(toDay(d)))) return PAY_STUB_MESSAGES.payDateRequired;
  const days = (payDates as string[]).map(toDay).sort((a, b) => b - a);
  const now = toDay(today);
  if (days[0]! > now) return PAY_STUB_MESSAGES.futureDate;
  const [min, max] = GAP_DAYS[frequency ?? 'hourly'];
  for (let i = 1; i < days.length; i++) {
    const gap = days[i - 1]! - days[i]!;
    if (gap < min || gap > max) return PAY_STUB_MESSAGES.notConsecutive;
  }
  if (now - days[0]! > max) return PAY_STUB_MESSAGES.notRecent;
  return null;
}
