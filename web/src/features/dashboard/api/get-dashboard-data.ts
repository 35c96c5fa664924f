import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DashboardData } from '../../../lib/domain';

type Point = { lat: number; lon: number } | null;

/** GET /api/Dashboard/getDashboardData (spec section 7); with the browser's rounded point for the weather. */
export function getDashboardData(signal?: AbortSignal, point: Point = null): Promise<DashboardData> {
  const query = point ? `?${new URLSearchParams({ lat: String(point.lat), lon: String(point.lon) })}` : '';
  return api.get<DashboardData>(`/Dashboard/getDashboardData${query}`, { signal });
}

export const dashboardQueryOptions = (point: Point = null) =>
  queryOptions({ queryKey: ['dashboard', 'data', point], queryFn: ({ signal }) => getDashboardData(signal, point) });

export function useDashboardData(enabled = true, point: Point = null) {
  // The page keeps showing the last answer while the one for the browser's point loads.
  return useQuery({ ...dashboardQueryOptions(point), enabled, placeholderData: keepPreviousData });
}
