import { localeTag } from '../i18n';

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Dates and money in the reader's language (spec section 1: en, es, zh, bn). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  // A bare date (a lottery end) is a calendar day, not a moment: show it as that day everywhere.
  const day = CALENDAR_DAY.test(iso);
  const date = new Date(day ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(localeTag(), { dateStyle: 'medium', ...(day ? { timeZone: 'UTC' } : {}) }).format(date);
}

/** A moment with its time of day, hours and minutes only (no seconds): "Dec 3, 2026, 10:30 AM". */
export function formatDateTime(iso: string | null | undefined, dateStyle: 'medium' | 'full' = 'medium'): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(localeTag(), { dateStyle, timeStyle: 'short' }).format(date);
}

/** Whole dollars with the reader's grouping ("$1,200"), the one way money is written on every page. */
export function formatMoney(amount: number): string {
  return new Intl.NumberFormat(localeTag(), { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(amount);
}

export function formatPercent(value: number): string {
  return new Intl.NumberFormat(localeTag(), { style: 'percent', maximumFractionDigits: 0 }).format(value / 100);
}
