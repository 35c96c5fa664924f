import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DashboardData } from '../../../lib/domain';

/** GET /api/Dashboard/getDashboardData (spec section 7). */
export function getDashboardData(signal?: AbortSignal): Promise<DashboardData> {
  return api.get<DashboardData>('/Dashboard/getDashboardData', { signal });
}

export const dashboardQueryOptions = () => queryOptions({ queryKey: ['dashboard', 'data'], queryFn: ({ signal }) => getDashboardData(signal) });

export function useDashboardData(enabled = true) {
  return useQuery({ ...dashboardQueryOptions(), enabled });
}
