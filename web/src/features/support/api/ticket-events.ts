import { useQueryClient } from '@tanstack/react-query';
import { createEventStream } from '../../../lib/event-stream';

/**
 * Live ticket pages: `GET /api/SupportTicket/events` says a ticket changed (its id
 * only); the open ticket lists and the open ticket are fetched again. The pages poll only while
 * the stream is down.
 */
const stream = createEventStream('/api/SupportTicket/events');
/** The key every ticket query lives under (support-tickets.ts). */
export const ticketsKey = ['support-tickets'] as const;

export const useTicketsLive = stream.useLive;

/** Mounted by each ticket page (the requester's list and ticket, the staff queue and ticket). */
export function useTicketEvents(enabled = true): void {
  const client = useQueryClient();
  stream.useEvents(() => void client.invalidateQueries({ queryKey: ticketsKey }), enabled);
}
