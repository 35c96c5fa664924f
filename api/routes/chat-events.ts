import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { eventScope, type ChatEvent } from '../services/chat-events';

const HEARTBEAT_MS = 25_000;

/** No query is accepted on an event stream (nothing may ride in the URL). */
export const NoQuery = z.object({}).strict();

/**
 * Opens a server-sent event stream on the replica's LISTEN connection: `subscribe` registers the
 * page with the hub, given the writer of one event and the end of the stream. The stream ends when
 * the access token does (the page reconnects with a fresh one), when the page goes, or when the
 * replica shuts down.
 */
export async function openEventStream(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  subscribe: (write: (event: string, data: unknown) => void, end: () => void) => () => void,
): Promise<void> {
  try {
    await app.chatEvents.listening();
  } catch (error) {
    request.log.warn({ err: error }, 'chat events: cannot listen');
    throw new HttpError(503, 'serviceUnavailable');
  }

  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  const write = (chunk: string) => {
    if (!raw.writableEnded) raw.write(chunk);
  };
  let unsubscribe = () => {};
  const timers: NodeJS.Timeout[] = [];
  const end = () => {
    unsubscribe();
    for (const t of timers) clearTimeout(t);
    if (!raw.writableEnded) raw.end();
  };
  unsubscribe = subscribe((event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`), end);
  write('retry: 3000\nevent: ready\ndata: {}\n\n');
  timers.push(setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS));
  const exp = (request.user as { exp?: number } | undefined)?.exp;
  if (exp) timers.push(setTimeout(end, Math.max(0, exp * 1000 - Date.now())));
  request.raw.on('close', end);
}

/**
 * `GET /api/Chat/events` (path chosen here): server-sent events telling an open
 * page that one of its conversations changed. The web reads it with fetch streaming and the bearer
 * header, so the token never goes in a URL. The stream ends when the access token does; the page
 * then reconnects with a fresh one. No query is accepted (nothing may ride in the URL).
 */
export const chatEventRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/events', { preHandler: signedIn('resident', 'manager'), schema: { querystring: NoQuery } }, async (request, reply) => {
    const scope = await eventScope(app.db, request.session.userId, request.session.role);
    await openEventStream(app, request, reply, (write, end) =>
      app.chatEvents.subscribe({
        ...scope,
        send: (event: ChatEvent | 'resync') => (event === 'resync' ? write('resync', {}) : write('chat', event)),
        end,
      }),
    );
  });
};
