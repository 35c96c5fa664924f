import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking LibreTranslate's API (`POST /translate`, JSON `{q, source, target,
 * format, api_key}`, `q` a string or a list; answers `{translatedText, detectedLanguage?}` or, on
 * failure, a status with `{error}`), for tests of the translator adapter. It "translates" from a
 * small phrase book, else by tagging the text with the target language, so a test can tell a
 * translation from the original. `mode` makes it fail (500) or hold its answers (slow: a request
 * is answered only once the mode changes back, so whatever answered meanwhile did not wait for it).
 */
export interface LibreTranslateServer {
  url: string;
  /** Every request body received, in order. */
  requests: { q: string | string[]; source: string; target: string; format?: string; api_key?: string }[];
  mode: 'ok' | 'error' | 'slow';
  close(): Promise<void>;
}

const PHRASES: Record<string, Record<string, string>> = {
  bn: {
    'The pay stub is from last year. Please upload one from the last 30 days.': 'বেতনের স্লিপটি গত বছরের। অনুগ্রহ করে গত ৩০ দিনের একটি আপলোড করুন।',
    'Hello': 'হ্যালো',
  },
  es: { 'Hello': 'Hola', 'Good morning': 'Buenos días' },
};

export const fakeTranslation = (text: string, target: string) => PHRASES[target]?.[text] ?? `[${target}] ${text}`;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startLibreTranslate(options: { apiKey?: string } = {}): Promise<LibreTranslateServer> {
  let mode: LibreTranslateServer['mode'] = 'ok';
  const waiting = new Set<() => void>();
  const state = {
    requests: [] as LibreTranslateServer['requests'],
    get mode() {
      return mode;
    },
    set mode(next: LibreTranslateServer['mode']) {
      mode = next;
      if (next !== 'slow') for (const release of [...waiting]) release();
    },
  };
  /** Resolves once slow mode ends or the caller hangs up. */
  const hold = (response: ServerResponse) =>
    new Promise<void>((resolve) => {
      const release = () => {
        waiting.delete(release);
        resolve();
      };
      waiting.add(release);
      response.once('close', release);
    });
  const server: Server = createServer((request, response) => {
    void (async () => {
      const send = (status: number, body: unknown) => {
        if (response.destroyed) return;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'POST' || request.url !== '/translate') return send(404, { error: 'Not Found' });
      let body: LibreTranslateServer['requests'][number];
      try {
        body = JSON.parse(await readBody(request));
      } catch {
        return send(400, { error: 'Invalid request' });
      }
      state.requests.push(body);
      if (options.apiKey && body.api_key !== options.apiKey) return send(403, { error: 'Invalid API key' });
      if (body.q === undefined) return send(400, { error: "Invalid request: missing q parameter" });
      if (!body.target) return send(400, { error: "Invalid request: missing target parameter" });
      if (state.mode === 'error') return send(500, { error: 'Cannot translate text: internal error' });
      if (state.mode === 'slow') await hold(response);
      const detected = { confidence: 90, language: 'en' };
      if (Array.isArray(body.q)) {
        return send(200, { translatedText: body.q.map((t) => fakeTranslation(t, body.target)), ...(body.source === 'auto' ? { detectedLanguage: body.q.map(() => detected) } : {}) });
      }
      return send(200, { translatedText: fakeTranslation(body.q, body.target), ...(body.source === 'auto' ? { detectedLanguage: detected } : {}) });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of [...waiting]) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
