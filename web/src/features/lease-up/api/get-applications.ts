import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApplicationRow, Page } from '../../../lib/domain';

/** Applications a page asks for; the server caps it at PAGE_SIZE_MAX. */
const PAGE_SIZE = 25;

export interface ApplicationsFilter {
  search?: string;
  /** Managers: one opportunity's applications. */
  opportunityId?: string;
}

/**
 * GET /api/LeaseUpApplication/getApplications — the household's own applications, or for a manager
 * the organisation's, newest first, a page at a time by cursor, each with its pending tasks.
 */
export function getApplications(filter: ApplicationsFilter, cursor: string | undefined, signal?: AbortSignal): Promise<Page<ApplicationRow>> {
  return api.get<Page<ApplicationRow>>('/LeaseUpApplication/getApplications', { query: { ...filter, limit: PAGE_SIZE, cursor }, signal });
}

export function useApplications(filter: ApplicationsFilter, options: { refetchInterval?: number } = {}) {
  return useInfiniteQuery({
    queryKey: ['applications', 'list', filter],
    queryFn: ({ signal, pageParam }) => getApplications(filter, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...options,
  });
}
