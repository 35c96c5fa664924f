import { describe, expect, it } from 'vitest';
import { PAY_STUB_MESSAGES, payStubProblem } from '../../domain';

/** Spec sections 5 and 9: pay stubs are the last 6 consecutive (the day is injected). */
describe('last 6 consecutive pay stubs', () => {
  const today = '2026-03-16';
  it('accepts the latest periods of each schedule', () => {
    expect(payStubProblem(['2026-03-13', '2026-03-06', '2026-02-27', '2026-02-20', '2026-02-13', '2026-02-06'], 'weekly', today)).toBeNull();
    expect(payStubProblem(['2026-03-06', '2026-02-20', '2026-02-06'], 'bi_weekly', today)).toBeNull();
    expect(payStubProblem(['2026-03-15', '2026-02-28', '2026-02-15', '2026-01-31'], 'semimonthly', today)).toBeNull();
    expect(payStubProblem(['2026-02-28', '2026-01-31', '2025-12-31'], 'monthly', today)).toBeNull();
    // A holiday moves a weekly pay day by a day or two.
    expect(payStubProblem(['2026-03-12', '2026-03-06'], 'weekly', today)).toBeNull();
  });
  it('refuses a missing date, a gap, a repeat, an old run and a future date', () => {
    expect(payStubProblem(['2026-03-13', null], 'weekly', today)).toBe(PAY_STUB_MESSAGES.payDateRequired);
    expect(payStubProblem(['2026-03-13', '2026-02-27'], 'weekly', today)).toBe(PAY_STUB_MESSAGES.notConsecutive);
    expect(payStubProblem(['2026-03-13', '2026-03-13'], 'weekly', today)).toBe(PAY_STUB_MESSAGES.notConsecutive);
    expect(payStubProblem(['2026-02-27', '2026-02-20'], 'weekly', today)).toBe(PAY_STUB_MESSAGES.notRecent);
    expect(payStubProblem(['2026-01-31', '2025-12-31'], 'monthly', today)).toBe(PAY_STUB_MESSAGES.notRecent);
    expect(payStubProblem(['2026-03-20'], 'weekly', today)).toBe(PAY_STUB_MESSAGES.futureDate);
  });
});
