import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { AccessGrantView, ImpersonationAuditEntry, Page } from '../../../lib/domain';

/** `/api/AccessGrants` (paths chosen here): the household's grants and the audit of what was done for it. */
export function useHouseholdGrants() {
  return useInfiniteQuery({
    queryKey: ['access', 'grants'],
    queryFn: ({ signal, pageParam }) => api.get<Page<AccessGrantView>>('/AccessGrants', { signal, query: { cursor: pageParam, limit: 10 } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useHouseholdAudit() {
  return useInfiniteQuery({
    queryKey: ['access', 'audit'],
    queryFn: ({ signal, pageParam }) => api.get<Page<ImpersonationAuditEntry>>('/AccessGrants/audit', { signal, query: { cursor: pageParam, limit: 20 } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useAnswerGrant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ grantId, answer }: { grantId: string; answer: 'grant' | 'revoke' | 'extend' }) => api.post<AccessGrantView>(`/AccessGrants/${encodeURIComponent(grantId)}/${answer}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['access'] }),
  });
}
