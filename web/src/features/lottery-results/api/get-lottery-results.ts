import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { LotteryResults } from '../../../lib/domain';

/** GET /api/lottery/:opportunityId/results?after=&limit= (public: the draw, and a page of ranks). */
export function getLotteryResults(opportunityId: string, query: { after?: number; logNumber?: string; limit?: number }, signal?: AbortSignal): Promise<LotteryResults> {
  return api.get<LotteryResults>(`/lottery/${encodeURIComponent(opportunityId)}/results`, { query, signal });
}

export const RANKS_PER_PAGE = 50;

export const lotteryResultsQueryOptions = (opportunityId: string, after: number) =>
  queryOptions({
    queryKey: ['lottery-results', opportunityId, 'ranks', after],
    queryFn: ({ signal }) => getLotteryResults(opportunityId, after > 0 ? { after, limit: RANKS_PER_PAGE } : { limit: RANKS_PER_PAGE }, signal),
  });

/** The published draw with one page of ranks; the previous page stays on screen while the next loads. */
export function useLotteryResults(opportunityId: string, after: number) {
  return useQuery({ ...lotteryResultsQueryOptions(opportunityId, after), placeholderData: keepPreviousData });
}
