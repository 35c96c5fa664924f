import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import type { DuplicatePairRow, LotteryView, MailedLetterRow, PaperApplicationEntered } from '../../../lib/domain';
import { getAccessToken } from '../../../lib/session';

const lotteryBase = (opportunityId: string) => `/OpportunityLottery/${encodeURIComponent(opportunityId)}`;
const authHeader = (): Record<string, string> => {
  const token = getAccessToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

/** POST …/paper-applications as multipart/form-data: the form as JSON in `application`, the scan as the one file. */
export async function enterPaperApplication(opportunityId: string, form: object, scan: File): Promise<PaperApplicationEntered> {
  const body = new FormData();
  body.append('application', JSON.stringify(form));
  body.append('files', scan, scan.name);
  const response = await fetch(`/api${lotteryBase(opportunityId)}/paper-applications`, { method: 'POST', body, headers: authHeader() });
  const answer = (await response.json().catch(() => null)) as { message?: string; data?: { code?: string } } | null;
  if (!response.ok) throw new ApiError(response.status, answer?.message ?? response.statusText, (answer?.data?.code as never) ?? 'unknown', answer?.data ?? null);
  return (answer as { data: PaperApplicationEntered }).data;
}

export function useEnterPaperApplication(opportunityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ form, scan }: { form: object; scan: File }) => enterPaperApplication(opportunityId, form, scan),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['lottery', opportunityId] }),
  });
}

/** The possible duplicates of a lottery, a page at a time by cursor. */
export function useDuplicatePairs(opportunityId: string) {
  return useInfiniteQuery({
    queryKey: ['lottery', opportunityId, 'duplicates'],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => api.get<{ items: DuplicatePairRow[]; next: string | null }>(`${lotteryBase(opportunityId)}/duplicates`, { query: { after: pageParam, limit: 50 }, signal }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/** ResolveDuplicate: the lottery's action; the list is read again. */
export function useResolveDuplicate(opportunityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { pairId: string; keep: string; reason: string }) => api.post<LotteryView>(`${lotteryBase(opportunityId)}/ResolveDuplicate`, body),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['lottery', opportunityId] }),
  });
}

export function usePrintQueue(show: 'to_mail' | 'all') {
  return useInfiniteQuery({
    queryKey: ['print-queue', show],
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => api.get<{ items: MailedLetterRow[]; next: string | null }>('/PrintQueue', { query: { show, after: pageParam, limit: 50 }, signal }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useMarkLetter() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mark }: { id: string; mark: 'printed' | 'mailed' }) => api.post<MailedLetterRow>(`/PrintQueue/${encodeURIComponent(id)}/mark`, { mark }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['print-queue'] }),
  });
}

/** Opens a queued letter's PDF in a new tab (the link is revoked once opened); a refusal throws its ApiError. */
export async function openLetter(id: string): Promise<void> {
  const response = await fetch(`/api/PrintQueue/${encodeURIComponent(id)}/pdf`, { headers: authHeader() });
  if (!response.ok) {
    // A refusal is the envelope (e.g. 410 `letterPurged`: mailed, and its claim code deleted with the PDF).
    const body = (await response.json().catch(() => null)) as { message?: string; data?: { code?: string } } | null;
    throw new ApiError(response.status, body?.message ?? `letter ${response.status}`, (body?.data?.code as never) ?? 'unknown');
  }
  const url = URL.createObjectURL(await response.blob());
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useClaimPaperApplication() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { code: string; dateOfBirth: string }) => api.post<{ householdId: string; applicationIds: string[] }>('/PaperApplication/claim', input),
    onSuccess: () => void client.invalidateQueries(),
  });
}
