import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type {
  AdminAuditEntry,
  AdminUserRow,
  ImpersonationAuditEntry,
  Organization,
  OrganizationBody,
  OrganizationMember,
  OrganizationRequest,
  Page,
  Role,
  SortDirection,
  UserListRow,
  UserSort,
  UserStatus,
} from '../../../lib/domain';

/** `/api/Admin` (paths chosen here): the admin's Users and Organizations screens. */
const id = encodeURIComponent;

function paged<T>(key: readonly unknown[], path: string, query: Record<string, string | number | undefined> = {}, enabled = true) {
  return {
    queryKey: key,
    queryFn: ({ signal, pageParam }: { signal: AbortSignal; pageParam: string | undefined }) => api.get<Page<T>>(path, { signal, query: { ...query, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Page<T>) => last.nextCursor ?? undefined,
    enabled,
  };
}

export interface AdminUserParams {
  search: string;
  role: Role | '';
  status: UserStatus | '';
  sort: UserSort;
  dir: SortDirection;
}

export const useAdminUsers = (params: AdminUserParams) =>
  useInfiniteQuery({ ...paged<AdminUserRow>(['admin', 'users', params], '/Admin/users', { ...params, limit: 25 }), placeholderData: keepPreviousData });
export const useUserChanges = (userId: string | null) => useInfiniteQuery(paged<AdminAuditEntry>(['admin', 'changes', userId], `/Admin/users/${id(userId ?? '')}/audit`, {}, Boolean(userId)));
export const useActionsFor = (userId: string | null) =>
  useInfiniteQuery(paged<ImpersonationAuditEntry>(['admin', 'impersonation', userId], '/Admin/impersonation-audit', { actingUserId: userId ?? undefined, limit: 20 }, Boolean(userId)));
export const useOrganizations = (search: string) => useInfiniteQuery(paged<Organization>(['admin', 'organizations', search], '/Admin/organizations', { search, limit: 25 }));
export const useMembers = (organizationId: string | null) =>
  useInfiniteQuery(paged<OrganizationMember>(['admin', 'members', organizationId], `/Admin/organizations/${id(organizationId ?? '')}/members`, { limit: 50 }, Boolean(organizationId)));
export const useOrganizationRequests = () => useInfiniteQuery(paged<OrganizationRequest>(['admin', 'requests'], '/Admin/organizations/requests', { status: 'pending', limit: 25 }));

function useAdminMutation<A, R>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }) });
}

export const useUserAction = () =>
  useAdminMutation(({ userId, action }: { userId: string; action: 'deactivate' | 'reactivate' | 'resend-verification' }) => api.post<UserListRow>(`/Admin/users/${id(userId)}/${action}`));
export const useChangeRole = () => useAdminMutation(({ userId, role }: { userId: string; role: Role }) => api.put<UserListRow>(`/Admin/users/${id(userId)}/role`, { role }));
export const useSaveOrganization = () =>
  useAdminMutation(({ organizationId, body }: { organizationId: string | null; body: OrganizationBody }) =>
    organizationId ? api.put<Organization>(`/Admin/organizations/${id(organizationId)}`, body) : api.post<Organization>('/Admin/organizations', body),
  );
export const useAssignMember = () =>
  useAdminMutation(({ organizationId, userId, remove }: { organizationId: string; userId: string; remove?: boolean }) =>
    remove ? api.delete<unknown>(`/Admin/organizations/${id(organizationId)}/members/${id(userId)}`) : api.post<unknown>(`/Admin/organizations/${id(organizationId)}/members/${id(userId)}`),
  );
export const useDecideRequest = () => useAdminMutation(({ requestId, approve }: { requestId: string; approve: boolean }) => api.post<OrganizationRequest>(`/Admin/organizations/requests/${id(requestId)}/${approve ? 'approve' : 'decline'}`));

