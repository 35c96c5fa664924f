import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';

/** `/healthz`: the process is up. `/readyz`: PostgreSQL, Temporal and the blob store answer. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async (_request, reply) => reply.ok({ up: true }));

  app.get('/readyz', async (_request, reply) => {
    const checks = await Promise.allSettled([
      sql`select 1`.execute(app.db),
      app.temporal.workflowService.getSystemInfo({}),
      app.blobs.ping(),
    ]);
    const [database, temporal, blobs] = checks.map((c) => (c.status === 'fulfilled' ? 'ok' : 'unreachable'));
    const ready = checks.every((c) => c.status === 'fulfilled');
    return reply.ok({ database, temporal, blobs }, ready ? 'Ready' : 'Not ready', ready ? 200 : 503);
  });
};
