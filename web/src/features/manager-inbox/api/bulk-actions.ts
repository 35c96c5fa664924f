import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { BulkBatchView, BulkCaseResult, BulkCaseStatus, CreateBulkBatchBody, Page } from '../../../lib/domain';

const seg = encodeURIComponent;
const bulkKey = (batchId: string) => ['bulk-actions', batchId] as const;

/** While a batch runs its page polls, so the manager watches it move (and may leave and come back). */
const PROGRESS_REFRESH_MS = 1_500;

/** POST /api/BulkActions: starts a batch; the caller goes to its progress page. */
export function useCreateBulkBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBulkBatchBody) => api.post<BulkBatchView>('/BulkActions', body),
    onSuccess: (batch) => client.setQueryData(bulkKey(batch.batchId), batch),
  });
}

/** GET /api/BulkActions/{id}: the batch and its counts, refreshed until it has finished. */
export function useBulkBatch(batchId: string) {
  return useQuery({
    queryKey: bulkKey(batchId),
    queryFn: ({ signal }) => api.get<BulkBatchView>(`/BulkActions/${seg(batchId)}`, { signal }),
    refetchInterval: (query) => (query.state.data && ['completed', 'cancelled'].includes(query.state.data.status) ? false : PROGRESS_REFRESH_MS),
  });
}

/**
 * GET /api/BulkActions/{id}/results: each case's result by cursor, optionally one outcome. Keyed by
 * the batch's status too, so the results are read once more when the batch finishes.
 */
export function useBulkResults(batchId: string, status: BulkCaseStatus | undefined, batchStatus: string | undefined) {
  const refreshing = batchStatus === 'running' || batchStatus === 'cancelling';
  return useInfiniteQuery({
    queryKey: [...bulkKey(batchId), 'results', status ?? 'all', batchStatus ?? ''],
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<BulkCaseResult>>(`/BulkActions/${seg(batchId)}/results`, { signal, query: { limit: 50, cursor: pageParam, ...(status ? { status } : {}) } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: refreshing ? PROGRESS_REFRESH_MS * 2 : false,
  });
}

/** POST /api/BulkActions/{id}/cancel: stops the batch before its next case. */
export function useCancelBulkBatch(batchId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<BulkBatchView>(`/BulkActions/${seg(batchId)}/cancel`),
    onSuccess: (batch) => client.setQueryData(bulkKey(batchId), batch),
  });
}
