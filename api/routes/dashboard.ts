import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../errors';
import { signedIn } from '../guards';
import * as dashboard from '../services/dashboard';
import { householdOf } from '../services/users';

/** `/api/Dashboard` (spec section 7, without the external feeds). A 404 means "no data" (section 8). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE, blobs: app.blobs });

  app.get('/getDashboardData', { preHandler: signedIn('resident') }, async (request, reply) =>
    reply.ok(await dashboard.dashboardData(deps(), request.session)),
  );

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
