import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CreateSupportTicketBody, Page, SupportCaseKind, SupportTicketAttachment, SupportTicketListItem, SupportTicketView } from '../../../lib/domain';
import { downloadFile, postMultipart } from '../../../lib/multipart';
import { ticketsKey, useTicketsLive } from './ticket-events';

/** `/api/SupportTicket` (spec section 7 "Support tickets"; the prefix is the portal's). */
const seg = encodeURIComponent;
export { ticketsKey };
/** While the live stream is down, open ticket pages look again this often. */
const POLL_MS = 15_000;

export interface TicketFilters {
  status?: string;
  category?: string;
  assignedToMe?: boolean;
  escalated?: boolean;
  caseId?: string;
}

/** GET GetSupportTickets: the caller's tickets or the staff queue, a page at a time. */
export function useTickets(filters: TicketFilters, enabled = true) {
  const live = useTicketsLive();
  return useInfiniteQuery({
    queryKey: [...ticketsKey, 'list', filters],
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<SupportTicketListItem>>('/SupportTicket/GetSupportTickets', {
        signal,
        query: { ...filters, assignedToMe: filters.assignedToMe || undefined, escalated: filters.escalated || undefined, cursor: pageParam, limit: 25 },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
    refetchInterval: live ? false : POLL_MS,
  });
}

export interface TicketDetail {
  ticket: SupportTicketView;
  side: 'requester' | 'staff';
  linkedCase: { kind: SupportCaseKind; id: string; status: string | null; step: string | null; logNumber: string | null; title: string | null } | null;
  attachments: SupportTicketAttachment[];
}

/** GET GetSupportTicketById/{id}. Answers arrive live (ticket-events.ts); it polls only while the stream is down. */
export function useTicket(id: string) {
  const live = useTicketsLive();
  return useQuery({
    queryKey: [...ticketsKey, 'detail', id],
    queryFn: ({ signal }) => api.get<TicketDetail>(`/SupportTicket/GetSupportTicketById/${seg(id)}`, { signal }),
    refetchInterval: live ? false : POLL_MS,
  });
}

/** A ticket's opening: JSON, or multipart with the attached files (the same fields). */
export function useCreateTicket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, files }: { body: CreateSupportTicketBody; files: File[] }) =>
      files.length
        ? postMultipart<SupportTicketView>('/SupportTicket/CreateSupportTicket', { ...body }, files)
        : api.post<SupportTicketView>('/SupportTicket/CreateSupportTicket', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: ticketsKey }),
  });
}

/** Saves an attachment (fetched with the bearer header; the link never carries a token). */
export const downloadAttachment = (ticketId: string, a: SupportTicketAttachment) => downloadFile(`/SupportTicket/${seg(ticketId)}/attachments/${seg(a.attachmentId)}`, a.fileName);

export type TicketStep = { kind: 'reply'; message: string; files?: File[] } | { kind: 'assign'; assigneeUserId: string } | { kind: 'resolve'; note?: string };

/** POST AddReplyToTicket (either side), and the staff's assign and resolve. */
export function useTicketStep(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (step: TicketStep) => {
      if (step.kind === 'reply') {
        return step.files?.length
          ? postMultipart<SupportTicketView>('/SupportTicket/AddReplyToTicket', { ticketId: id, message: step.message }, step.files)
          : api.post<SupportTicketView>('/SupportTicket/AddReplyToTicket', { ticketId: id, message: step.message });
      }
      if (step.kind === 'assign') return api.post<SupportTicketView>(`/SupportTicket/${seg(id)}/assign`, { assigneeUserId: step.assigneeUserId });
      return api.post<SupportTicketView>(`/SupportTicket/${seg(id)}/resolve`, step.note ? { note: step.note } : {});
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ticketsKey }),
  });
}
