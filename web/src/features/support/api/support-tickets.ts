import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CreateSupportTicketBody, Page, SupportCaseKind, SupportTicketListItem, SupportTicketView } from '../../../lib/domain';

/** `/api/SupportTicket` (spec section 7 "Support tickets"; the prefix is the portal's). */
const seg = encodeURIComponent;
export const ticketsKey = ['support-tickets'] as const;

export interface TicketFilters {
  status?: string;
  category?: string;
  assignedToMe?: boolean;
  escalated?: boolean;
  caseId?: string;
}

/** GET GetSupportTickets: the caller's tickets or the staff queue, a page at a time. */
export function useTickets(filters: TicketFilters, enabled = true) {
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
  });
}

export interface TicketDetail {
  ticket: SupportTicketView;
  side: 'requester' | 'staff';
  linkedCase: { kind: SupportCaseKind; id: string; status: string | null; step: string | null; logNumber: string | null; title: string | null } | null;
}

/** GET GetSupportTicketById/{id}. While the page is open it looks again now and then for answers. */
export function useTicket(id: string) {
  return useQuery({
    queryKey: [...ticketsKey, 'detail', id],
    queryFn: ({ signal }) => api.get<TicketDetail>(`/SupportTicket/GetSupportTicketById/${seg(id)}`, { signal }),
    refetchInterval: 15_000,
  });
}

export function useCreateTicket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSupportTicketBody) => api.post<SupportTicketView>('/SupportTicket/CreateSupportTicket', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: ticketsKey }),
  });
}

export type TicketStep = { kind: 'reply'; message: string } | { kind: 'assign'; assigneeUserId: string } | { kind: 'resolve'; note?: string };

/** POST AddReplyToTicket (either side), and the staff's assign and resolve. */
export function useTicketStep(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (step: TicketStep) => {
      if (step.kind === 'reply') return api.post<SupportTicketView>('/SupportTicket/AddReplyToTicket', { ticketId: id, message: step.message });
      if (step.kind === 'assign') return api.post<SupportTicketView>(`/SupportTicket/${seg(id)}/assign`, { assigneeUserId: step.assigneeUserId });
      return api.post<SupportTicketView>(`/SupportTicket/${seg(id)}/resolve`, step.note ? { note: step.note } : {});
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ticketsKey }),
  });
}
