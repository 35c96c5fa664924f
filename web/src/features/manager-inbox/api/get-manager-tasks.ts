import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ManagerTaskFilter, ManagerTaskRow, Page } from '../../../lib/domain';

/** Tasks a page asks for; the server caps it at PAGE_SIZE_MAX. */
const PAGE_SIZE = 50;

/**
 * GET /api/ManagerTasks: the organisation's open tasks across lease-up, recertification and
 * relocation, a page at a time by cursor (overdue first, then soonest due).
 */
export function useManagerTasks(filter: ManagerTaskFilter, options: { refetchInterval?: number } = {}) {
  return useInfiniteQuery({
    // Under 'applications' so a lease-up action (which invalidates that key) refreshes the inbox too.
    queryKey: ['applications', 'manager-tasks', filter],
    queryFn: ({ signal, pageParam }) => api.get<Page<ManagerTaskRow>>('/ManagerTasks', { signal, query: { ...filter, limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...options,
  });
}
