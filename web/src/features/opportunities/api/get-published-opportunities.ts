import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import type { OpportunityFilter, OpportunitySummary } from '../../../lib/domain';

/** GET /api/Opportunity/published-opportunities?type=all|rental|ownership&search=... */
export async function getPublishedOpportunities(filter: OpportunityFilter, signal?: AbortSignal): Promise<OpportunitySummary[]> {
  try {
    return await api.get<OpportunitySummary[]>('/Opportunity/published-opportunities', {
      query: { type: filter.type, search: filter.search },
      signal,
    });
  } catch (error) {
    // An empty result may also come back as "not found"; either way the list is empty (spec section 2).
    if (error instanceof ApiError && error.code === 'noOpportunitiesFound') return [];
    throw error;
  }
}

export const publishedOpportunitiesQueryOptions = (filter: OpportunityFilter) =>
  queryOptions({
    queryKey: ['opportunities', 'published', filter.type, filter.search ?? ''],
    queryFn: ({ signal }) => getPublishedOpportunities(filter, signal),
  });

export function usePublishedOpportunities(filter: OpportunityFilter) {
  return useQuery(publishedOpportunitiesQueryOptions(filter));
}
