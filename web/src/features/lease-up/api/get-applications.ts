import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApplicationRow } from '../../../lib/domain';

/**
 * GET /api/LeaseUpApplication/getApplications?search=... — the household's own applications, or for
 * a manager the organisation's, each with its pending tasks.
 */
export function getApplications(search: string, signal?: AbortSignal): Promise<ApplicationRow[]> {
  return api.get<ApplicationRow[]>('/LeaseUpApplication/getApplications', { query: { search }, signal });
}

export const applicationsQueryOptions = (search = '') =>
  queryOptions({
    queryKey: ['applications', 'list', search],
    queryFn: ({ signal }) => getApplications(search, signal),
  });

export function useApplications(search = '', options: { refetchInterval?: number } = {}) {
  return useQuery({ ...applicationsQueryOptions(search), ...options });
}
