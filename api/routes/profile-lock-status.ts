import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../guards';
import { profileLockStatus } from '../services/dashboard';

/** `GET /api/UserProfile/profile-lock-status` (spec sections 3 and 7); the other UserProfile routes live elsewhere. */
export const profileLockStatusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/profile-lock-status', { preHandler: signedIn('resident') }, async (request, reply) =>
    reply.ok(await profileLockStatus({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE }, request.session)),
  );
};
