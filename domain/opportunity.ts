import { FORM_MESSAGES } from './form-messages';
import { z } from 'zod';
import { LOTTERY_GROUPS, LotterySetAside } from './lottery';
import { DATE_MESSAGE, isSafeText, isValidDate, money, NUMBER_MESSAGE, REQUIRED, UNSAFE_TEXT_MESSAGE } from './fields';
import { OPPORTUNITY_MESSAGES } from './opportunity-messages';

import { LISTING_AREAS, OPPORTUNITY_FILTER_TYPES, OPPORTUNITY_KINDS, OPPORTUNITY_SEARCH_MAX, type OpportunityKind } from './opportunity-filter';
import { DAY } from './time';

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
  /** Where a paper application is mailed; empty when the manager gave none. */
  mailingAddress?: string;
  amenities: string[];
  units: UnitSummary[];
  requirements: RequirementRow[];
  incomeRanges: IncomeRange[];
  building?: string;
  hasPaperApplication?: boolean;
  /** A lottery opportunity whose draw has run: its public results page exists. */
  lotteryDrawn?: boolean;
}

/** Whole days from today until the lottery end date (both as calendar days in UTC). */
export function daysUntil(endDate: string, now: Date): number {
  const end = Date.parse(`${endDate.slice(0, 10)}T00:00:00Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((end - today) / DAY);
}

/** Spec section 2: sort by days remaining (soonest lottery end first, or latest first). */
export const FilteredOpportunityQuery = OpportunityFilter.extend({
  sort: z.enum(['daysRemainingAsc', 'daysRemainingDesc']).default('daysRemainingAsc'),
  favoritesOnly: z.enum(['true', 'false']).optional(),
});
export type FilteredOpportunityQuery = z.infer<typeof FilteredOpportunityQuery>;

/** A whole number in a range, as forms send it (text) or as a number; empty is 'Required'. */
const wholeIn = (min: number, max: number, message: string = NUMBER_MESSAGE) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    z.number({ error: (i) => (i.input === undefined ? REQUIRED : NUMBER_MESSAGE) }).int(NUMBER_MESSAGE).min(min, message).max(max, message),
  );
const optionalDays = z.preprocess((v) => (v === '' || v === null ? undefined : v), wholeIn(1, 90, OPPORTUNITY_MESSAGES.daysRange).optional());
const text = (max: number) => z.string().trim().max(max).refine(isSafeText, UNSAFE_TEXT_MESSAGE);
const amiPercent = wholeIn(0, 300, OPPORTUNITY_MESSAGES.percentRange);

/** The n-th entries whose key another entry already has (issues point at the repeat). */
function repeats<T>(items: T[], key: (item: T) => string, message: string, ctx: z.RefinementCtx, field: string) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: 'custom', message, path: [index, field] });
    seen.add(k);
  });
}

export const OpportunityUnitInput = z.object({
  unitNumber: text(40).min(1, OPPORTUNITY_MESSAGES.unitNumberRequired),
  bedroomType: text(60).min(1, REQUIRED),
  address: text(300).default(''),
  accessibility: z.array(text(100).min(1)).max(20).default([]),
  monthlyRent: money,
  amiPercent,
});
export type OpportunityUnitInput = z.infer<typeof OpportunityUnitInput>;

export const RequirementInput = z.object({ amiPercent, layout: text(60).min(1, REQUIRED), monthlyRent: money });
export const IncomeRangeInput = z
  .object({ householdSize: wholeIn(1, 20), min: money, max: money })
  .refine((r) => r.min <= r.max, { message: OPPORTUNITY_MESSAGES.incomeMinAboveMax, path: ['max'] });

/**
 * What a manager of the owning organisation enters to create or edit an opportunity (the editor at
 * /manager/opportunities/new and /:id/edit checks the same schema before the API does).
 */
export const OpportunityInput = z.object({
  name: text(200).min(1, OPPORTUNITY_MESSAGES.opportunityNameRequired),
  kind: z.enum(OPPORTUNITY_KINDS),
  building: text(200).default(''),
  address: text(300).min(1, FORM_MESSAGES.addressRequired),
  /** The borough the listing stands in (a county code): listing alerts for areas match on it. */
  area: z.preprocess((v) => (v === '' ? null : v), z.enum(LISTING_AREAS).nullish()).transform((v) => v ?? null),
  /** Where a paper application is mailed (spec section 2: apply online or by mail). */
  mailingAddress: text(500).default(''),
  description: text(5000).default(''),
  amenities: z.array(text(100).min(1)).max(50).default([]),
  lotteryEndDate: z.string(REQUIRED).trim().min(1, REQUIRED).refine(isValidDate, DATE_MESSAGE),
  units: z
    .array(OpportunityUnitInput)
    .max(500)
    .default([])
    .superRefine((units, ctx) => repeats(units, (u) => u.unitNumber.toLowerCase(), OPPORTUNITY_MESSAGES.unitNumberTwice, ctx, 'unitNumber')),
  requirements: z
    .array(RequirementInput)
    .max(100)
    .default([])
    .superRefine((rows, ctx) => repeats(rows, (r) => `${r.amiPercent}|${r.layout.toLowerCase()}`, OPPORTUNITY_MESSAGES.amiBandTwice, ctx, 'layout')),
  incomeRanges: z
    .array(IncomeRangeInput)
    .max(20)
    .default([])
    .superRefine((rows, ctx) => repeats(rows, (r) => String(r.householdSize), OPPORTUNITY_MESSAGES.householdSizeTwice, ctx, 'householdSize')),
  /** Lottery (ranked draw after the deadline) or first come (each application starts its case at once). */
  selection: z.enum(['first_come', 'lottery']).default('first_come'),
  /** Lottery only: set-aside shares of the units and the community board whose residents get the 'community' preference. */
  lottery: z
    .object({
      setAsides: z
        .array(LotterySetAside)
        .max(LOTTERY_GROUPS.length)
        .default([])
        .superRefine((rows, ctx) => {
          repeats(rows, (r) => r.group, OPPORTUNITY_MESSAGES.setAsideGroupTwice, ctx, 'group');
          if (rows.reduce((sum, r) => sum + r.share, 0) > 1 + 1e-9) ctx.addIssue({ code: 'custom', message: OPPORTUNITY_MESSAGES.setAsidesOver100, path: [] });
        }),
      communityBoard: text(50).optional(),
      /** Days after the deadline when mail postmarked by the deadline is still entered; the list freezes at their end. */
      mailGraceDays: z.preprocess((v) => (v === '' || v === null ? undefined : v), wholeIn(0, 60, OPPORTUNITY_MESSAGES.graceDaysRange).optional()),
    })
    .default({ setAsides: [] }),
  settings: z
    .object({
      offerExpiryDays: optionalDays,
      appealWindowDays: optionalDays,
      appealDecisionBusinessDays: z.preprocess((v) => (v === '' || v === null ? undefined : v), wholeIn(1, 30).optional()),
      additionalDocumentsDays: optionalDays,
    })
    .default({}),
});
export type OpportunityInput = z.infer<typeof OpportunityInput>;

/** A manager's view of an opportunity of their organisation, published or not. */
export interface ManagedOpportunity extends OpportunityDetail {
  building: string;
  area: (typeof LISTING_AREAS)[number] | null;
  mailingAddress: string;
  selection: 'first_come' | 'lottery';
  lottery: { setAsides: LotterySetAside[]; communityBoard?: string; mailGraceDays: number };
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
