import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { RecertActionBody, RecertTenantAction, RecertificationCase } from '../../../lib/domain';

/** GET /api/TenantRecertificationStatus/status: the case, or null when there is none yet. */
export async function getRecertificationStatus(signal?: AbortSignal): Promise<RecertificationCase | null> {
  return api.get<RecertificationCase | null>('/TenantRecertificationStatus/status', { signal });
}

export const recertificationQueryKey = ['recertification', 'status'] as const;

export function useRecertificationStatus() {
  return useQuery({ queryKey: recertificationQueryKey, queryFn: ({ signal }) => getRecertificationStatus(signal) });
}

/** A tenant action: POST /api/TenantRecertificationStatus/{caseId}/{action}, answered with the new case. */
export function useRecertificationAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ caseId, action, body }: { caseId: string; action: RecertTenantAction; body?: RecertActionBody }) =>
      api.post<RecertificationCase>(`/TenantRecertificationStatus/${encodeURIComponent(caseId)}/${action}`, body ?? {}),
    onSuccess: (data) => {
      client.setQueryData(recertificationQueryKey, data);
      void client.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
