import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { OpportunityDetail } from '../../../lib/domain';

/** GET /api/Opportunity/:id */
export function getOpportunity(id: string, signal?: AbortSignal): Promise<OpportunityDetail> {
  return api.get<OpportunityDetail>(`/Opportunity/${encodeURIComponent(id)}`, { signal });
}

export const opportunityQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['opportunities', 'detail', id],
    queryFn: ({ signal }) => getOpportunity(id, signal),
  });

export function useOpportunity(id: string) {
  return useQuery(opportunityQueryOptions(id));
}
