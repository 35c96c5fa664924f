import { ApiError, refreshTokens } from './api-client';
import { getAccessToken } from './session';
import { isMessageCode } from './domain-core';

/**
 * Sends text fields and files to `/api{path}` as multipart/form-data (the JSON client cannot send
 * files), with the bearer token; the answer and errors follow the same envelope as every call
 * (errors carry their code, so they are shown in the reader's language).
 */
export async function postMultipart<T>(path: string, fields: Record<string, string | null | undefined>, files: File[], retried = false): Promise<T> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null && v !== '') form.append(k, v);
  for (const f of files) form.append('files', f, f.name);
  const token = getAccessToken();
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { method: 'POST', body: form, headers: token ? { Authorization: `Bearer ${token}`, Accept: 'application/json' } : { Accept: 'application/json' }, signal: AbortSignal.timeout(120_000) });
  } catch {
    throw new ApiError(500, 'An unexpected error occurred', 'unexpectedError');
  }
  // An access token that just expired: refresh once and send again.
  if (response.status === 401 && token && !retried) {
    await refreshTokens();
    return postMultipart<T>(path, fields, files, true);
  }
  const body = (await response.json().catch(() => null)) as { message?: string; data?: { code?: unknown } } | null;
  if (!response.ok) {
    const raw = body?.data?.code;
    const code = isMessageCode(raw) || raw === 'validation' ? raw : 'unknown';
    throw new ApiError(response.status, body?.message ?? response.statusText, code as never, body?.data ?? null);
  }
  return (body as { data: T }).data;
}

/** Downloads `/api{path}` with the bearer token (never in a URL) and saves it under its name. */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const token = getAccessToken();
  const response = await fetch(`/api${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string; data?: { code?: unknown } } | null;
    const raw = body?.data?.code;
    throw new ApiError(response.status, body?.message ?? response.statusText, (isMessageCode(raw) ? raw : 'unknown') as never, body?.data ?? null);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Spec section 9: object links revoked after 10 s.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
