import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PAGE_SIZE_MAX, type Page, type UploadedDocument } from '../../../lib/domain';

/**
 * GET /api/Document: the household's uploaded documents (the manager names the household). The
 * action forms offer every document of this one household to choose from, so the pages are read
 * through to the end (a household's own files, not a list that grows with the organisation).
 */
export function useHouseholdDocuments(householdId: string, asManager: boolean, enabled: boolean) {
  return useQuery({
    queryKey: ['documents', 'household', householdId],
    queryFn: async ({ signal }) => {
      const documents: UploadedDocument[] = [];
      let cursor: string | undefined;
      do {
        const page = await api.get<Page<UploadedDocument>>('/Document', { signal, query: { ...(asManager ? { householdId } : {}), limit: PAGE_SIZE_MAX, cursor } });
        documents.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return documents;
    },
    enabled,
  });
}
