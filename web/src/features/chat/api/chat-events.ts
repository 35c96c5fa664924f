import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getAccessToken } from '../../../lib/session';
import { refreshTokens } from '../../../lib/api-client';

/**
 * Live chat (issue 13 item 3): `GET /api/Chat/events` read with fetch streaming so the bearer token
 * goes in a header, never in a URL (EventSource cannot send one). Each event says a conversation
 * changed; the chat queries are then fetched again. While the stream is down the queries poll.
 */
let live = false;
const listeners = new Set<() => void>();
function setLive(value: boolean) {
  if (live === value) return;
  live = value;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => (listeners.add(l), () => listeners.delete(l));

/** Whether the stream is open: the chat queries poll only when it is not. */
export const useChatLive = () => useSyncExternalStore(subscribe, () => live, () => false);

/** Splits a server-sent event stream into its event names (the data only names a conversation). */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (name: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const name = /^event: (.*)$/m.exec(buffer.slice(0, cut))?.[1];
      buffer = buffer.slice(cut + 2);
      if (name) onEvent(name);
    }
  }
}

export function useChatEvents(chatKey: readonly unknown[], enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    const refresh = () => void client.invalidateQueries({ queryKey: chatKey });
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    void (async () => {
      let failures = 0;
      while (!stop.signal.aborted) {
        try {
          const token = getAccessToken();
          if (!token) return;
          const response = await fetch('/api/Chat/events', { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, signal: stop.signal });
          if (response.status === 401) await refreshTokens();
          else if (response.ok && response.body) {
            await readEvents(response.body, (name) => {
              if (name === 'ready') {
                failures = 0;
                setLive(true);
              }
              // 'ready' too: anything missed while the stream was down is fetched.
              refresh();
            });
          }
        } catch {
          // Dropped or aborted: polling covers the gap until it is back.
        }
        setLive(false);
        failures++;
        if (!stop.signal.aborted) await wait(Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5)));
      }
    })();
    return () => {
      stop.abort();
      setLive(false);
    };
  }, [enabled, client]);
}
