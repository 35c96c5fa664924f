import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { UploadedDocument } from '../../../lib/domain';

/** GET /api/Document: the household's uploaded documents (the manager names the household). */
export function useHouseholdDocuments(householdId: string, asManager: boolean, enabled: boolean) {
  return useQuery({
    queryKey: ['documents', 'household', householdId],
    queryFn: ({ signal }) => api.get<UploadedDocument[]>('/Document', { signal, query: asManager ? { householdId } : {} }),
    enabled,
  });
}
