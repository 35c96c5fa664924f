import { useMutation, useQuery, useQueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { OrganizationDirectoryEntry, OrganizationRequest, Page } from '../../../lib/domain';

/** `/api/Organization` (paths chosen here): whether a manager or ambassador is linked, and applying to join. */
export interface OrganizationLink {
  linked: boolean;
  organizationIds: string[];
  pendingRequests: OrganizationRequest[];
}

export function useOrganizationLink(enabled = true) {
  return useQuery({ queryKey: ['organization-link'], queryFn: ({ signal }) => api.get<OrganizationLink>('/Organization/mine', { signal }), enabled, staleTime: 60_000 });
}

export function useOrganizationDirectory(search: string) {
  return useInfiniteQuery({
    queryKey: ['organization-directory', search],
    queryFn: ({ signal, pageParam }) => api.get<Page<OrganizationDirectoryEntry>>('/Organization/directory', { signal, query: { search, cursor: pageParam, limit: 50 } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useApplyToOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { organizationId: string; note: string }) => api.post<OrganizationRequest>('/Organization/apply', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['organization-link'] }),
  });
}
