import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApplyBody } from '../../../lib/domain';

export interface ApplyResult {
  applicationId: string;
}

/** POST /api/LeaseUpApplication/apply with {opportunityId, householdSize, householdIncome, agreeToTerms}. */
export function apply(body: ApplyBody): Promise<ApplyResult> {
  return api.post<ApplyResult>('/LeaseUpApplication/apply', body);
}

export function useApply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: apply,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}
