import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api, apiRequest } from '../../../lib/api-client';
import { getAccessToken } from '../../../lib/session';
import type { DocumentContent, UploadedDocument } from '../../../lib/domain';

export interface DocumentFilters {
  search?: string;
  documentType?: string;
  status?: string;
}

export const documentsQuery = (filters: DocumentFilters = {}) =>
  queryOptions({
    queryKey: ['household', 'documents', filters],
    queryFn: ({ signal }) => api.get<UploadedDocument[]>('/Household/getAllDocuments', { query: { ...filters }, signal }),
  });
export const useDocuments = (filters: DocumentFilters = {}) => useQuery(documentsQuery(filters));

export const getDocument = (id: string) => api.get<DocumentContent>(`/Document/GetDocument/${id}`);
export const deleteDocument = (id: string) => apiRequest('DELETE', `/Document/DeleteDocument/${id}`);

/**
 * POST /api/Document/UploadDocument as multipart/form-data (the JSON client cannot send files).
 * Answers and errors follow the same envelope as every other call.
 */
export async function uploadDocument(fields: Record<string, string | null | undefined>, files: File[]): Promise<UploadedDocument[]> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v) form.append(k, v);
  for (const f of files) form.append('files', f, f.name);
  const token = getAccessToken();
  const response = await fetch('/api/Document/UploadDocument', { method: 'POST', body: form, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = (await response.json().catch(() => null)) as { message?: string; data?: { code?: string } } | null;
  if (!response.ok) throw new ApiError(response.status, body?.message ?? response.statusText, (body?.data?.code as never) ?? 'unknown', body?.data ?? null);
  return (body as { data: UploadedDocument[] }).data;
}

/** Opens a document in a new tab; the link is revoked after 10 s (spec sections 7 and 9). */
export async function openDocument(id: string): Promise<void> {
  const { fileContent, contentType } = await getDocument(id);
  // Spec section 9: base64 decoded in 512-character chunks.
  const parts: Uint8Array[] = [];
  const binary = atob(fileContent);
  for (let i = 0; i < binary.length; i += 512) {
    const slice = binary.slice(i, i + 512);
    parts.push(Uint8Array.from(slice, (c) => c.charCodeAt(0)));
  }
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: contentType }));
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
