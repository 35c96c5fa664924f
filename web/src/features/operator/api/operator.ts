import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { OperatorAuditEntry, OperatorCaseSummary, OperatorHistory, Page, RetentionScheduleRuns, StuckReason, UndeliveredNotice, WorkflowCaseKind } from '../../../lib/domain';

/** `/api/Operator` (paths chosen here): the operator console of Admins. */
const id = encodeURIComponent;
const casePath = (kind: WorkflowCaseKind, caseId: string) => `/Operator/cases/${id(kind)}/${id(caseId)}`;

export type CaseSearch = { logNumber: string } | { email: string } | { householdId: string };

export const useCaseSearch = (search: CaseSearch | null) =>
  useQuery({
    queryKey: ['operator', 'search', search],
    queryFn: ({ signal }) => api.get<OperatorCaseSummary[]>('/Operator/cases', { signal, query: search ?? {} }),
    enabled: search !== null,
  });

export const useStuckCases = (reason: StuckReason, days: number) =>
  useInfiniteQuery({
    queryKey: ['operator', 'stuck', reason, days],
    queryFn: ({ signal, pageParam }) => api.get<Page<OperatorCaseSummary>>('/Operator/stuck', { signal, query: { reason, days, limit: 25, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAuditLog = (workflowId?: string) =>
  useInfiniteQuery({
    queryKey: ['operator', 'audit', workflowId ?? null],
    queryFn: ({ signal, pageParam }) => api.get<Page<OperatorAuditEntry>>('/Operator/audit', { signal, query: { workflowId, limit: 25, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useCaseHistory = (kind: WorkflowCaseKind, caseId: string) =>
  useQuery({ queryKey: ['operator', 'history', kind, caseId], queryFn: ({ signal }) => api.get<OperatorHistory>(`${casePath(kind, caseId)}/history`, { signal }) });

function useOperatorMutation<A, R>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: ['operator', 'audit'] }) });
}

/** The history with personal fields shown: the reason goes to the audit log. */
export const useRevealHistory = (kind: WorkflowCaseKind, caseId: string) =>
  useOperatorMutation(({ reason }: { reason: string }) => api.post<OperatorHistory>(`${casePath(kind, caseId)}/history/reveal`, { reason }));

export type CaseAction = 'retry' | 'terminate' | 'reset';
export const useCaseAction = (kind: WorkflowCaseKind, caseId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, reason, eventId }: { action: CaseAction; reason: string; eventId?: number }) =>
      api.post<unknown>(`${casePath(kind, caseId)}/${action}`, action === 'reset' ? { reason, eventId } : { reason }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['operator'] }),
  });
};

/** Saves the history as a JSON file (encoded as Temporal keeps it, or decoded; revealed only with a reason). */
export const useExportHistory = (kind: WorkflowCaseKind, caseId: string) =>
  useOperatorMutation(async ({ format, reason }: { format: 'encoded' | 'decoded'; reason?: string }) => {
    const body = await api.post<unknown>(`${casePath(kind, caseId)}/export`, reason ? { format, reason } : { format });
    const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${kind}-${caseId}-${format}.json`;
    link.click();
    URL.revokeObjectURL(url);
  });

/** GET /api/Operator/undelivered-notices: the latest notices that reached nobody, across every case. */
export const useUndeliveredNotices = () =>
  useQuery({
    queryKey: ['operator', 'undelivered-notices'],
    queryFn: ({ signal }) => api.get<{ items: (UndeliveredNotice & { caseKey: string | null })[] }>('/Operator/undelivered-notices', { signal }),
  });

/** The retention sweep's daily schedule: its last and next runs. */
export const useRetentionSchedule = () =>
  useQuery({ queryKey: ['operator', 'retention'], queryFn: ({ signal }) => api.get<RetentionScheduleRuns>('/Operator/retention', { signal }) });
