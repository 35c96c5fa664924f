import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';

/** Each readiness check gets this long: /readyz answers within 2 s whatever is down or stalled. */
export const READY_CHECK_MS = 1500;

function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work(),
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no answer in time')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz`: the process is up. `/readyz`: PostgreSQL, Temporal and the blob store answer, each within
 * 1.5 s, and the process is not draining.
 */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async (_request, reply) => reply.ok({ up: true }));

  app.get('/readyz', async (_request, reply) => {
    // A replica that is stopping says so before its port closes (api/main.ts, API_DRAIN_SECONDS).
    if (app.lifecycle.draining) return reply.ok({ draining: true }, 'Not ready', 503);
    const checks = await Promise.allSettled([
      within(READY_CHECK_MS, () => sql`select 1`.execute(app.db)),
      within(READY_CHECK_MS, () => app.temporal.connection.withDeadline(Date.now() + READY_CHECK_MS, () => app.temporal.workflowService.getSystemInfo({}))),
      within(READY_CHECK_MS, () => app.blobs.ping()),
    ]);
    const [database, temporal, blobs] = checks.map((c) => (c.status === 'fulfilled' ? 'ok' : 'unreachable'));
    const ready = checks.every((c) => c.status === 'fulfilled');
    return reply.ok({ database, temporal, blobs }, ready ? 'Ready' : 'Not ready', ready ? 200 : 503);
  });
};
