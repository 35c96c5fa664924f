/**
 * Spec section 2: the opportunities list filters rental, ownership or all, with a search, kept in
 * local storage (key opportunityFilters). No zod here, so the public list does not load the schemas;
 * the API's query schema (domain/opportunity.ts) is built from the same constants.
 */
export const OPPORTUNITY_KINDS = ['rental', 'ownership'] as const;
export type OpportunityKind = (typeof OPPORTUNITY_KINDS)[number];
export const OPPORTUNITY_FILTER_TYPES = ['all', ...OPPORTUNITY_KINDS] as const;
export const OPPORTUNITY_SEARCH_MAX = 200;
/** The five boroughs by county code: where a listing stands, and the profile's preferred counties. */
export const LISTING_AREAS = ['bronx', 'kings', 'new_york', 'queens', 'richmond'] as const;
export type ListingArea = (typeof LISTING_AREAS)[number];

export interface OpportunityFilter {
  type: (typeof OPPORTUNITY_FILTER_TYPES)[number];
  search?: string;
}

/** A stored filter as the API's schema reads it; anything damaged reads as no filter. */
export function parseOpportunityFilter(value: unknown): OpportunityFilter | null {
  if (typeof value !== 'object' || value === null) return null;
  const { type = 'all', search } = value as Record<string, unknown>;
  if (!(OPPORTUNITY_FILTER_TYPES as readonly unknown[]).includes(type)) return null;
  if (search === undefined) return { type: type as OpportunityFilter['type'] };
  if (typeof search !== 'string' || search.trim().length > OPPORTUNITY_SEARCH_MAX) return null;
  return { type: type as OpportunityFilter['type'], search: search.trim() };
}
