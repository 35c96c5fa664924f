import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../errors';
import { signedIn } from '../guards';
import * as dashboard from '../services/dashboard';
import { queryNumber } from '../../domain/ids';
import { householdOf } from '../services/users';

/**
 * The browser's rounded position, when the user allowed location: the weather card is
 * that point's; without it New York City's (spec section 8).
 */
const DashboardQuery = z
  .object({
    lat: queryNumber(-90, 90).optional(),
    lon: queryNumber(-180, 180).optional(),
  })
  .refine((q) => (q.lat === undefined) === (q.lon === undefined), { message: 'lat and lon go together', path: ['lon'] });

/** `/api/Dashboard` (spec section 7). A 404 means "no data" (section 8). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE, blobs: app.blobs });

  app.get('/getDashboardData', { preHandler: signedIn('resident'), schema: { querystring: DashboardQuery } }, async (request, reply) => {
    const { lat, lon } = request.query;
    const point = lat !== undefined && lon !== undefined ? { lat, lon } : null;
    // The feeds come from memory (app.feeds): this answer never waits on an outside source.
    return reply.ok(await dashboard.dashboardData({ ...deps(), feeds: app.feeds }, request.session, point));
  });

  app.get('/getProfileCompletionStatus', { preHandler: signedIn('resident') }, async (request, reply) => {
    const household = await householdOf(app.db, request.session.userId);
    if (!household) throw notFound();
    return reply.ok({ profileCompletion: household.profile_completion, isComplete: household.profile_completion >= 100 });
  });

  app.get('/getActionItems', { preHandler: signedIn('resident') }, async (request, reply) => {
    const items = await dashboard.actionItems(deps(), request.session);
    if (items.length === 0) throw notFound();
    return reply.ok(items);
  });
};
