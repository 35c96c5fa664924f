import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApplicationDetail } from '../../../lib/domain';

/** GET /api/LeaseUpApplication/getDetailsById/:id — the workflow's view, names, and the caller's role. */
export function getApplication(id: string, signal?: AbortSignal): Promise<ApplicationDetail> {
  return api.get<ApplicationDetail>(`/LeaseUpApplication/getDetailsById/${encodeURIComponent(id)}`, { signal });
}

export const applicationQueryKey = (id: string) => ['applications', 'detail', id] as const;

export const applicationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: applicationQueryKey(id),
    queryFn: ({ signal }) => getApplication(id, signal),
  });

export function useApplication(id: string) {
  return useQuery(applicationQueryOptions(id));
}
