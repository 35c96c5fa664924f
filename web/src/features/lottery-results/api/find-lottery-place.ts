import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import type { LotteryPlace } from '../../../lib/domain';
import { getLotteryResults } from './get-lottery-results';

/** GET /api/lottery/:opportunityId/results?logNumber=: one log number's place, or null when it holds no rank. */
export async function findLotteryPlace(opportunityId: string, logNumber: string, signal?: AbortSignal): Promise<LotteryPlace | null> {
  try {
    return (await getLotteryResults(opportunityId, { logNumber }, signal)).place;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const lotteryPlaceQueryOptions = (opportunityId: string, logNumber: string) =>
  queryOptions({
    queryKey: ['lottery-results', opportunityId, 'place', logNumber],
    queryFn: ({ signal }) => findLotteryPlace(opportunityId, logNumber, signal),
    enabled: logNumber !== '',
  });

export function useLotteryPlace(opportunityId: string, logNumber: string) {
  return useQuery(lotteryPlaceQueryOptions(opportunityId, logNumber));
}
