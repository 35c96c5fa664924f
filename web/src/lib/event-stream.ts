import { useEffect, useSyncExternalStore } from 'react';
import { getAccessToken } from './session';
import { refreshTokens } from './api-client';

/**
 * A live stream of server-sent events (chat and ticket pages), read with fetch streaming
 * so the bearer token goes in a header, never in a URL (EventSource cannot send one). Each event
 * only names what changed; the page fetches it again through its guarded route. While the stream
 * is down, `useLive()` is false and the pages poll instead.
 */
export function createEventStream(path: string) {
  let live = false;
  const listeners = new Set<() => void>();
  const setLive = (value: boolean) => {
    if (live === value) return;
    live = value;
    for (const l of listeners) l();
  };
  const subscribe = (l: () => void) => (listeners.add(l), () => listeners.delete(l));

  /** Whether the stream is open: the queries poll only when it is not. */
  const useLive = () => useSyncExternalStore(subscribe, () => live, () => false);

  /** Keeps the stream open while mounted and enabled; `onEvent` hears each event name ('ready' too: anything missed is fetched). */
  function useEvents(onEvent: (name: string) => void, enabled: boolean): void {
    useEffect(() => {
      if (!enabled) return;
      const stop = new AbortController();
      const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      void (async () => {
        let failures = 0;
        while (!stop.signal.aborted) {
          try {
            const token = getAccessToken();
            if (!token) return;
            const response = await fetch(path, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, signal: stop.signal });
            if (response.status === 401) await refreshTokens();
            else if (response.ok && response.body) {
              await readEvents(response.body, (name) => {
                if (name === 'ready') {
                  failures = 0;
                  setLive(true);
                }
                onEvent(name);
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
    }, [enabled]);
  }

  return { useLive, useEvents };
}

/** Splits a server-sent event stream into its event names (the data only names what changed). */
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
