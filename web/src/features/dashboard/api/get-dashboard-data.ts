import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import type { ActionItem, DashboardData } from '../../../lib/domain';

/** GET /api/Dashboard/getDashboardData (spec section 7). */
export function getDashboardData(signal?: AbortSignal): Promise<DashboardData> {
  return api.get<DashboardData>('/Dashboard/getDashboardData', { signal });
}

export const dashboardQueryOptions = () => queryOptions({ queryKey: ['dashboard', 'data'], queryFn: ({ signal }) => getDashboardData(signal) });

export function useDashboardData(enabled = true) {
  return useQuery({ ...dashboardQueryOptions(), enabled });
}

/** GET /api/Dashboard/getActionItems: a 404 means nothing to do (spec section 8), shown as an empty list. */
export async function getActionItems(signal?: AbortSignal): Promise<ActionItem[]> {
  try {
    return await api.get<ActionItem[]>('/Dashboard/getActionItems', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function useActionItems(enabled = true) {
  return useQuery({ queryKey: ['dashboard', 'actionItems'], queryFn: ({ signal }) => getActionItems(signal), enabled });
}
