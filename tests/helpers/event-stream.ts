import { expect } from 'vitest';

export interface ReceivedEvents {
  events: { event: string; data: unknown }[];
  status: number;
  stop(): void;
}

/**
 * Opens a server-sent event stream of the API over real HTTP (a stream never ends, so not through
 * inject), collects its events as they come, and waits for its `ready` event; a refused stream
 * answers with its status and no events.
 */
export async function listenToEvents(url: string, who: { authorization: string } | null): Promise<ReceivedEvents> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: who ? { authorization: who.authorization } : {}, signal: controller.signal });
  const received: ReceivedEvents = { events: [], status: res.status, stop: () => controller.abort() };
  if (res.status !== 200 || !res.body) {
    await res.text();
    return received;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event) received.events.push({ event, data: data ? JSON.parse(data) : null });
        }
      }
    } catch {
      // aborted
    }
  })();
  await expect.poll(() => received.events.some((e) => e.event === 'ready')).toBe(true);
  return received;
}
