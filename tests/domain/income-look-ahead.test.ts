import { describe, expect, it } from 'vitest';
import { IncomeInput, ZERO_INCOME_MESSAGES, ZeroIncomeDeclarationInput, exceedsLongTermCareLimit, longTermCareDailyAmount, todayIso, zeroIncomeLookAheadEnd } from '../../domain';

const member = '00000000-0000-4000-8000-000000000001';
const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** Spec section 9: the zero-income look-ahead of 12 months, and long-term care payments above $180 a day. */
describe('zero-income look-ahead', () => {
  it('ends the same day 12 months on, or the last day of that month', () => {
    expect(zeroIncomeLookAheadEnd('2026-03-16')).toBe('2027-03-16');
    expect(zeroIncomeLookAheadEnd('2028-02-29')).toBe('2029-02-28');
    expect(zeroIncomeLookAheadEnd('2026-12-31')).toBe('2027-12-31');
  });

  it('asks when and how much when income is expected within the 12 months, and only then', () => {
    const base = { incomeType: 'zero_income', memberId: member, frequency: 'monthly', duration: 'less_than_3_months', reasons: 'Laid off', expenses: 'Savings' };
    expect(IncomeInput.safeParse(base).success).toBe(true);
    const issues = (input: object) => {
      const r = IncomeInput.safeParse({ ...base, ...input });
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues({ expectsIncomeWithin12Months: 'true' })).toEqual(['expectedIncomeAmount: Required', 'expectedIncomeDate: Required']);
    expect(issues({ expectsIncomeWithin12Months: true, expectedIncomeDate: days(400), expectedIncomeAmount: 900 })).toEqual([`expectedIncomeDate: ${ZERO_INCOME_MESSAGES.lookAhead}`]);
    expect(issues({ expectsIncomeWithin12Months: true, expectedIncomeDate: todayIso(), expectedIncomeAmount: 900 })).toEqual([`expectedIncomeDate: ${ZERO_INCOME_MESSAGES.lookAhead}`]);
    expect(issues({ expectsIncomeWithin12Months: true, expectedIncomeDate: days(90), expectedIncomeAmount: 900 })).toEqual([]);
    const declaration = ZeroIncomeDeclarationInput.safeParse({ memberId: member, duration: '3_to_6_months', reasons: 'Caring for a parent', expenses: 'Family help', expectsIncomeWithin12Months: true, expectedIncomeDate: days(500), expectedIncomeAmount: 100 });
    expect(declaration.success).toBe(false);
  });
});

describe('long-term care insurance above $180 a day', () => {
  it('is referred to only above the daily limit', () => {
    expect(longTermCareDailyAmount(5475, 'monthly')).toBeCloseTo(180, 5);
    expect(exceedsLongTermCareLimit(5475, 'monthly')).toBe(false);
    expect(exceedsLongTermCareLimit(5500, 'monthly')).toBe(true);
    expect(exceedsLongTermCareLimit(1300, 'weekly')).toBe(true);
    expect(exceedsLongTermCareLimit(60_000, 'annually')).toBe(false);
  });
});
