import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { RelocationView } from '../../../lib/domain';

const seg = encodeURIComponent;
export const relocationQueryKey = ['relocation'] as const;

/** GET /api/Relocation: the tenant's relocation and `underRelocation` (spec section 7). */
export function useRelocation() {
  return useQuery({
    queryKey: relocationQueryKey,
    queryFn: ({ signal }) => api.get<{ underRelocation: boolean; relocation: RelocationView | null }>('/Relocation', { signal }),
  });
}

export type RelocationStep =
  | { kind: 'submitProfile'; id: string }
  | { kind: 'accept'; id: string; offerId: string }
  | { kind: 'decline'; offerId: string }
  | { kind: 'bookSlot'; id: string; slotId: string };

/** The tenant's relocation actions, each on its section-7 path. */
export function runRelocationStep(step: RelocationStep): Promise<RelocationView> {
  switch (step.kind) {
    case 'submitProfile':
      return api.post(`/Relocation/submit-profile/${seg(step.id)}`, {});
    case 'accept':
      return api.post(`/Relocation/${seg(step.id)}/unit-offers/${seg(step.offerId)}/accept`, {});
    case 'decline':
      return api.post(`/Relocation/unit-offers/${seg(step.offerId)}/decline`, {});
    case 'bookSlot':
      return api.post('/Relocation/book-slot', { relocationId: step.id, slotId: step.slotId });
  }
}

export function useRelocationStep() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runRelocationStep,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: relocationQueryKey });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
