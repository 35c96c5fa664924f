import { useQueryClient } from '@tanstack/react-query';
import { createEventStream } from '../../../lib/event-stream';

/**
 * Live chat: `GET /api/Chat/events` read with fetch streaming so the bearer token
 * goes in a header, never in a URL (EventSource cannot send one). Each event says a conversation
 * changed; the chat queries are then fetched again. While the stream is down the queries poll.
 */
const stream = createEventStream('/api/Chat/events');

/** Whether the stream is open: the chat queries poll only when it is not. */
export const useChatLive = stream.useLive;

export function useChatEvents(chatKey: readonly unknown[], enabled: boolean): void {
  const client = useQueryClient();
  stream.useEvents(() => void client.invalidateQueries({ queryKey: chatKey }), enabled);
}
