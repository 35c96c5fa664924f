import { DAY } from './time';

/** Calendar arithmetic in UTC shared by every case kind (pure: the caller passes the time in). */

export function addDays(iso: string, n: number): string {
  return new Date(Date.parse(iso) + n * DAY).toISOString();
}

/** `n` business days (Monday to Friday) after `iso`, same time of day. */
export function addBusinessDays(iso: string, n: number): string {
  const d = new Date(iso);
  let left = n;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) left -= 1;
  }
  return d.toISOString();
}

/** Adds calendar months in UTC (31 Aug + 6 months is 28/29 Feb, not 3 Mar). */
export function addMonthsUtc(iso: string, months: number): string {
  const d = new Date(iso);
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString();
}
