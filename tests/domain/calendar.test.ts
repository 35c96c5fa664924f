import { describe, expect, it } from 'vitest';
import { addBusinessDays, addDays } from '../../domain/calendar';

/**
 * The business-day and appeal-window rules with start dates on each day of one week (Monday
 * 2026-11-16 to Sunday 2026-11-22), so no result depends on the weekday a test happens to run on.
 */
describe('business days and the appeal window, from each day of one week', () => {
  const week = [
    // start (weekday), 5 business days later (always a weekday, same time of day)
    ['2026-11-16T15:30:00.000Z', '2026-11-23T15:30:00.000Z'], // Monday -> next Monday
    ['2026-11-17T15:30:00.000Z', '2026-11-24T15:30:00.000Z'], // Tuesday -> next Tuesday
    ['2026-11-18T15:30:00.000Z', '2026-11-25T15:30:00.000Z'], // Wednesday -> next Wednesday
    ['2026-11-19T15:30:00.000Z', '2026-11-26T15:30:00.000Z'], // Thursday -> next Thursday
    ['2026-11-20T15:30:00.000Z', '2026-11-27T15:30:00.000Z'], // Friday -> next Friday
    ['2026-11-21T15:30:00.000Z', '2026-11-27T15:30:00.000Z'], // Saturday -> Friday (6 calendar days)
    ['2026-11-22T15:30:00.000Z', '2026-11-27T15:30:00.000Z'], // Sunday -> Friday (5 calendar days)
  ] as const;

  it.each(week)('5 business days after %s is %s', (start, due) => {
    expect(addBusinessDays(start, 5)).toBe(due);
    expect([0, 6]).not.toContain(new Date(due).getUTCDay());
  });

  it.each(week)('the 14-day appeal window from %s ends 14 calendar days later, weekends included', (start) => {
    const end = addDays(start, 14);
    expect(Date.parse(end) - Date.parse(start)).toBe(14 * 86_400_000);
    expect(new Date(end).getUTCDay()).toBe(new Date(start).getUTCDay());
  });

  it('counts zero business days as the same moment and crosses month and year ends', () => {
    expect(addBusinessDays('2026-11-21T09:00:00.000Z', 0)).toBe('2026-11-21T09:00:00.000Z');
    expect(addBusinessDays('2026-12-31T09:00:00.000Z', 1)).toBe('2027-01-01T09:00:00.000Z');
    expect(addBusinessDays('2027-01-01T09:00:00.000Z', 1)).toBe('2027-01-04T09:00:00.000Z');
  });
});
