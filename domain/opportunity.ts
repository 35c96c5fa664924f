import { z } from 'zod';

export const OPPORTUNITY_KINDS = ['rental', 'ownership'] as const;
export type OpportunityKind = (typeof OPPORTUNITY_KINDS)[number];

/** Spec section 2: filter rental, ownership or all. */
export const OpportunityFilter = z.object({
  type: z.enum(['all', ...OPPORTUNITY_KINDS]).default('all'),
  search: z.string().trim().max(200).optional(),
});
export type OpportunityFilter = z.infer<typeof OpportunityFilter>;

export interface UnitSummary {
  id: string;
  unitNumber: string;
  bedroomType: string;
  address: string;
  accessibility: string[];
  monthlyRent: number;
  amiPercent: number;
}

export interface RequirementRow {
  amiPercent: number;
  layout: string;
  monthlyRent: number;
}

export interface IncomeRange {
  householdSize: number;
  min: number;
  max: number;
}

export interface OpportunitySummary {
  id: string;
  name: string;
  kind: OpportunityKind;
  address: string;
  organizationId: string;
  lotteryEndDate: string;
  /** Spec section 2: the lottery countdown is shown in days; negative means closed. */
  daysRemaining: number;
  unitCount: number;
}

export interface OpportunityDetail extends OpportunitySummary {
  description: string;
  amenities: string[];
  units: UnitSummary[];
  requirements: RequirementRow[];
  incomeRanges: IncomeRange[];
}

/** Whole days from today until the lottery end date (both as calendar days in UTC). */
export function daysUntil(endDate: string, now: Date): number {
  const end = Date.parse(`${endDate.slice(0, 10)}T00:00:00Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((end - today) / 86_400_000);
}
