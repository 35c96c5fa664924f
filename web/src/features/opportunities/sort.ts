import type { OpportunitySummary } from '../../lib/domain';

/** Spec section 2: sort by days remaining; lotteries that already closed go last. */
export function byDaysRemaining(a: OpportunitySummary, b: OpportunitySummary): number {
  const aClosed = a.daysRemaining < 0;
  const bClosed = b.daysRemaining < 0;
  if (aClosed !== bClosed) return aClosed ? 1 : -1;
  return aClosed ? b.daysRemaining - a.daysRemaining : a.daysRemaining - b.daysRemaining || a.name.localeCompare(b.name);
}

/** The list's sort control: soonest deadline first (the default), latest first, or by name. */
export const OPPORTUNITY_SORTS = ['endingSoon', 'endingLate', 'name'] as const;
export type OpportunitySort = (typeof OPPORTUNITY_SORTS)[number];

export const isOpportunitySort = (value: unknown): value is OpportunitySort => (OPPORTUNITY_SORTS as readonly unknown[]).includes(value);

export function sortOpportunities(list: readonly OpportunitySummary[], sort: OpportunitySort, locale?: string): OpportunitySummary[] {
  const byName = (a: OpportunitySummary, b: OpportunitySummary) => a.name.localeCompare(b.name, locale);
  if (sort === 'name') return [...list].sort(byName);
  if (sort === 'endingLate') {
    // Open lotteries, latest deadline first; closed ones still last.
    return [...list].sort((a, b) => {
      const aClosed = a.daysRemaining < 0;
      const bClosed = b.daysRemaining < 0;
      if (aClosed !== bClosed) return aClosed ? 1 : -1;
      return b.daysRemaining - a.daysRemaining || byName(a, b);
    });
  }
  return [...list].sort(byDaysRemaining);
}
