import type { OpportunitySummary } from '../../lib/domain';

/** Spec section 2: sort by days remaining; lotteries that already closed go last. */
export function byDaysRemaining(a: OpportunitySummary, b: OpportunitySummary): number {
  const aClosed = a.daysRemaining < 0;
  const bClosed = b.daysRemaining < 0;
  if (aClosed !== bClosed) return aClosed ? 1 : -1;
  return aClosed ? b.daysRemaining - a.daysRemaining : a.daysRemaining - b.daysRemaining || a.name.localeCompare(b.name);
}
