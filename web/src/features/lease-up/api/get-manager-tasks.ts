import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ManagerTaskFilter, ManagerTaskRow } from '../../../lib/domain';

/** GET /api/ManagerTasks: the organisation's open tasks across lease-up, recertification and relocation. */
export function useManagerTasks(filter: ManagerTaskFilter, options: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: ['applications', 'manager-tasks', filter],
    queryFn: ({ signal }) => api.get<ManagerTaskRow[]>('/ManagerTasks', { signal, query: { ...filter } }),
    ...options,
  });
}
