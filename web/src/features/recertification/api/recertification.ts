import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ManagerTenantHousehold, RecertActionBody, RecertTenantAction, RecertificationCase, StartInterimBody } from '../../../lib/domain';

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

/** The manager's tenant households with their latest cycle (GET /manager/households). */
export const managerHouseholdsKey = ['recertification', 'manager', 'households'] as const;
export function useManagerHouseholds() {
  return useQuery({ queryKey: managerHouseholdsKey, queryFn: ({ signal }) => api.get<ManagerTenantHousehold[]>('/TenantRecertificationStatus/manager/households', { signal }) });
}

/** Opens an annual or interim cycle for a household of the manager's organisation; the answer names the case. */
export function useStartRecertification() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ householdId, kind, reason }: { householdId: string; kind: 'annual' | 'interim'; reason?: StartInterimBody['reason'] }) =>
      api.post<{ caseId: string; started: boolean }>(`/TenantRecertificationStatus/manager/${kind}/${encodeURIComponent(householdId)}`, kind === 'interim' ? { reason } : {}),
    onSettled: () => void client.invalidateQueries({ queryKey: managerHouseholdsKey }),
  });
}
