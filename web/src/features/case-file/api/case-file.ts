import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getAccessToken } from '../../../lib/session';
import type { CaseFile, CaseFileDocument, CaseFileKind, DocumentDecision } from '../../../lib/domain';

const base = (kind: CaseFileKind, caseId: string) => `/CaseFile/${kind}/${encodeURIComponent(caseId)}`;
const caseFileKey = (kind: CaseFileKind, caseId: string) => ['case-file', kind, caseId] as const;

/** GET /api/CaseFile/{kind}/{caseId}: the manager's case file. */
export function useCaseFile(kind: CaseFileKind, caseId: string) {
  return useQuery({
    queryKey: caseFileKey(kind, caseId),
    queryFn: ({ signal }) => api.get<CaseFile>(base(kind, caseId), { signal }),
  });
}

/** POST .../documents/{id}/review: accept, reject with a reason, or flag; the case file is read again. */
export function useReviewDocument(kind: CaseFileKind, caseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, decision, reason }: { documentId: string; decision: DocumentDecision; reason?: string }) =>
      api.post<CaseFileDocument>(`${base(kind, caseId)}/documents/${encodeURIComponent(documentId)}/review`, { decision, ...(reason ? { reason } : {}) }),
    onSuccess: () => client.invalidateQueries({ queryKey: caseFileKey(kind, caseId) }),
  });
}

/**
 * The document's file as a blob: URL for the in-page preview (the API is reached with the bearer
 * token, so a frame cannot load it by address). The caller revokes it when the preview closes.
 */
export async function documentPreviewUrl(kind: CaseFileKind, caseId: string, documentId: string): Promise<string> {
  const response = await fetch(`/api${base(kind, caseId)}/documents/${encodeURIComponent(documentId)}/file`, {
    headers: { authorization: `Bearer ${getAccessToken() ?? ''}` },
  });
  if (!response.ok) throw new Error(`document ${response.status}`);
  return URL.createObjectURL(await response.blob());
}
