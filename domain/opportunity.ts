import { FORM_MESSAGES } from './form-messages';
import { z } from 'zod';
import { LOTTERY_GROUPS, LotterySetAside } from './lottery';

import { OPPORTUNITY_FILTER_TYPES, OPPORTUNITY_KINDS, OPPORTUNITY_SEARCH_MAX, type OpportunityKind } from './opportunity-filter';

export { OPPORTUNITY_FILTER_TYPES, OPPORTUNITY_KINDS, parseOpportunityFilter, type OpportunityKind } from './opportunity-filter';

/** Spec section 2: filter rental, ownership or all. */
export const OpportunityFilter = z.object({
  type: z.enum(OPPORTUNITY_FILTER_TYPES).default('all'),
  search: z.string().trim().max(OPPORTUNITY_SEARCH_MAX).optional(),
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
  /** Set for a signed-in user's lists: whether it is one of their favourites. */
  isFavorite?: boolean;
}

export interface OpportunityDetail extends OpportunitySummary {
  description: string;
  amenities: string[];
  units: UnitSummary[];
  requirements: RequirementRow[];
  incomeRanges: IncomeRange[];
  building?: string;
  hasPaperApplication?: boolean;
  /** A lottery opportunity whose draw has run: its public results page exists (issue 10). */
  lotteryDrawn?: boolean;
}

/** Whole days from today until the lottery end date (both as calendar days in UTC). */
export function daysUntil(endDate: string, now: Date): number {
  const end = Date.parse(`${endDate.slice(0, 10)}T00:00:00Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((end - today) / 86_400_000);
}

/** Spec section 2: sort by days remaining (soonest lottery end first, or latest first). */
export const FilteredOpportunityQuery = OpportunityFilter.extend({
  sort: z.enum(['daysRemainingAsc', 'daysRemainingDesc']).default('daysRemainingAsc'),
  favoritesOnly: z.enum(['true', 'false']).optional(),
});
export type FilteredOpportunityQuery = z.infer<typeof FilteredOpportunityQuery>;

const money = z.number().min(0).max(100_000_000);

/** What a manager of the owning organisation enters to create or edit an opportunity. */
export const OpportunityInput = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  kind: z.enum(OPPORTUNITY_KINDS),
  building: z.string().trim().max(200).default(''),
  address: z.string().trim().min(1, FORM_MESSAGES.addressRequired).max(300),
  description: z.string().trim().max(5000).default(''),
  amenities: z.array(z.string().trim().min(1).max(100)).max(50).default([]),
  lotteryEndDate: z.string().date(FORM_MESSAGES.invalidDate),
  units: z
    .array(
      z.object({
        unitNumber: z.string().trim().min(1, 'Unit number is required').max(40),
        bedroomType: z.string().trim().min(1).max(60),
        address: z.string().trim().max(300).default(''),
        accessibility: z.array(z.string().trim().min(1).max(100)).max(20).default([]),
        monthlyRent: money,
        amiPercent: z.number().int().min(0).max(300),
      }),
    )
    .max(500)
    .default([]),
  requirements: z.array(z.object({ amiPercent: z.number().int().min(0).max(300), layout: z.string().trim().min(1).max(60), monthlyRent: money })).max(100).default([]),
  incomeRanges: z
    .array(z.object({ householdSize: z.number().int().min(1).max(20), min: money, max: money }))
    .max(20)
    .default([])
    .refine((ranges) => ranges.every((r) => r.min <= r.max), 'Minimum income must not exceed maximum income'),
  /** Lottery (ranked draw after the deadline) or first come (each application starts its case at once). */
  selection: z.enum(['first_come', 'lottery']).default('first_come'),
  /** Lottery only: set-aside shares of the units and the community board whose residents get the 'community' preference. */
  lottery: z
    .object({ setAsides: z.array(LotterySetAside).max(LOTTERY_GROUPS.length).default([]), communityBoard: z.string().trim().max(50).optional() })
    .default({ setAsides: [] }),
  settings: z
    .object({
      offerExpiryDays: z.number().int().min(1).max(90),
      appealWindowDays: z.number().int().min(1).max(90),
      appealDecisionBusinessDays: z.number().int().min(1).max(30),
      additionalDocumentsDays: z.number().int().min(1).max(90),
    })
    .partial()
    .default({}),
});
export type OpportunityInput = z.infer<typeof OpportunityInput>;

/** A manager's view of an opportunity of their organisation, published or not. */
export interface ManagedOpportunity extends OpportunityDetail {
  building: string;
  selection: 'first_come' | 'lottery';
  lottery: { setAsides: LotterySetAside[]; communityBoard?: string };
  published: boolean;
  hasPaperApplication: boolean;
  settings: { offerExpiryDays: number; appealWindowDays: number; appealDecisionBusinessDays: number; additionalDocumentsDays: number };
}

/** Income-range fit, shown to the manager only; the product decides no eligibility (spec section 1). */
export function incomeFit(ranges: IncomeRange[], householdSize: number, income: number): 'within' | 'below' | 'above' | 'no_range' {
  const range = ranges.find((r) => r.householdSize === householdSize);
  if (!range) return 'no_range';
  if (income < range.min) return 'below';
  return income > range.max ? 'above' : 'within';
}

export const FavoriteBody = z.object({ opportunityId: z.string().uuid(), isFavorite: z.boolean().default(true) });
export type FavoriteBody = z.infer<typeof FavoriteBody>;
