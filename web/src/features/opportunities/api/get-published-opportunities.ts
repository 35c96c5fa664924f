import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import type { OpportunityFilter, OpportunitySummary } from '../../../lib/domain';

/** GET /api/Opportunity/published-opportunities?type=all|rental|ownership&search=... */
export async function getPublishedOpportunities(filter: OpportunityFilter, signal?: AbortSignal, signedIn = false): Promise<OpportunitySummary[]> {
  try {
    // Signed in: `filtered-opportunities` also marks the user's favourites.
    return await api.get<OpportunitySummary[]>(signedIn ? '/Opportunity/filtered-opportunities' : '/Opportunity/published-opportunities', {
      query: { type: filter.type, search: filter.search },
      signal,
    });
  } catch (error) {
    // An empty result may also come back as "not found"; either way the list is empty (spec section 2).
    if (error instanceof ApiError && error.code === 'noOpportunitiesFound') return [];
    throw error;
  }
}

export const publishedOpportunitiesQueryOptions = (filter: OpportunityFilter, signedIn = false) =>
  queryOptions({
    queryKey: ['opportunities', 'published', filter.type, filter.search ?? '', signedIn],
    queryFn: ({ signal }) => getPublishedOpportunities(filter, signal, signedIn),
  });

export function usePublishedOpportunities(filter: OpportunityFilter, signedIn = false) {
  return useQuery(publishedOpportunitiesQueryOptions(filter, signedIn));
}
