/**
 * Lengths of time in milliseconds, the unit of `Date.now()` and `Date.parse`. A day here is 24
 * hours of UTC time: calendar days in a time zone are domain/calendar.ts's business.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
