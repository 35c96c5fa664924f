import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type {
  AccessSummary,
  AmbassadorDashboard,
  AmbassadorOrganization,
  AmbassadorUserDashboard,
  AmbassadorUserRow,
  CreateResidentBody,
  OtpChannel,
  Page,
  SortDirection,
  UserListRow,
  UserSort,
  UserStatus,
} from '../../../lib/domain';

/** `/api/Ambassador` (spec section 7: the four ambassador calls, and the paths chosen here). */
const base = '/Ambassador';
const id = encodeURIComponent;

export const dashboardQuery = (ambassadorId: string) =>
  queryOptions({ queryKey: ['ambassador', 'dashboard', ambassadorId], queryFn: ({ signal }) => api.get<AmbassadorDashboard>(`${base}/getambessdordashboard/${id(ambassadorId)}`, { signal }) });

export function useAmbassadorDashboard(ambassadorId: string) {
  return useQuery(dashboardQuery(ambassadorId));
}

export interface UserListParams {
  search: string;
  status: UserStatus | '';
  sort: UserSort;
  dir: SortDirection;
}

export function useAmbassadorUsers(ambassadorId: string, params: UserListParams) {
  return useInfiniteQuery({
    queryKey: ['ambassador', 'users', ambassadorId, params],
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<AmbassadorUserRow>>(`${base}/getambessdorUsers/${id(ambassadorId)}`, { signal, query: { ...params, cursor: pageParam, limit: 25 } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export function useAmbassadorOrganizations(ambassadorId: string) {
  return useInfiniteQuery({
    queryKey: ['ambassador', 'organizations', ambassadorId],
    queryFn: ({ signal, pageParam }) => api.get<Page<AmbassadorOrganization>>(`${base}/getambessdororglist/${id(ambassadorId)}`, { signal, query: { cursor: pageParam, limit: 50 } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useUserDashboard(ambassadorId: string, userId: string) {
  return useQuery({
    queryKey: ['ambassador', 'user', ambassadorId, userId],
    queryFn: ({ signal }) => api.get<AmbassadorUserDashboard>(`${base}/${id(ambassadorId)}/users/${id(userId)}/dashboard`, { signal }),
  });
}

/** Every mutation here changes what the lists and dashboards show. */
function useAmbassadorMutation<A, R>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: ['ambassador'] }) });
}

export const useCreateResident = () => useAmbassadorMutation((body: CreateResidentBody) => api.post<UserListRow>(`${base}/users`, body));
export const useRequestAccess = () => useAmbassadorMutation((body: { userId: string; channel: OtpChannel }) => api.post<AccessSummary>(`${base}/access-requests`, body));
export const useGrantByCode = () => useAmbassadorMutation((body: { userId: string; code: string }) => api.post<AccessSummary>(`${base}/access-requests/grant-by-code`, body));
export const useEndAccess = () => useAmbassadorMutation((grantId: string) => api.post<unknown>(`${base}/access-grants/${id(grantId)}/revoke`));
