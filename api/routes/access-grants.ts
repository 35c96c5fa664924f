import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PageQuery } from '../../domain';
import { signedIn } from '../guards';
import { refuseWhileImpersonating } from '../plugins/auth';
import { listHouseholdGrants } from '../services/access-grant-views';
import { extendAccess, grantInSettings, revokeAccess } from '../services/access-grants';
import { listImpersonationAudit } from '../services/impersonation-audit';
import { Id } from '../../domain/ids';

const grantParam = z.object({ grantId: Id });

/**
 * `/api/AccessGrants` (paths chosen here): the household's side of consented access, shown in its
 * settings. Granting and revoking are the household's own acts, so never while someone acts for it.
 */
export const accessGrantRoutes: FastifyPluginAsyncZod = async (app) => {
  const resident = signedIn('resident');
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });

  app.get('/', { preHandler: resident, schema: { querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await listHouseholdGrants(app.db, request.session.userId, request.query, new Date())),
  );

  app.post('/:grantId/grant', { preHandler: [resident, refuseWhileImpersonating], schema: { params: grantParam } }, async (request, reply) =>
    reply.ok(await grantInSettings(deps(), request.session.userId, request.params.grantId, new Date()), 'Access granted'),
  );

  app.post('/:grantId/revoke', { preHandler: [resident, refuseWhileImpersonating], schema: { params: grantParam } }, async (request, reply) =>
    reply.ok(await revokeAccess(deps(), { kind: 'household', userId: request.session.userId }, request.params.grantId, new Date()), 'Access ended'),
  );

  // Another full period from now (after the notice before the end, or any time while it runs).
  app.post('/:grantId/extend', { preHandler: [resident, refuseWhileImpersonating], schema: { params: grantParam } }, async (request, reply) =>
    reply.ok(await extendAccess(deps(), request.session.userId, request.params.grantId, new Date()), 'Access extended'),
  );

  // Everything done for the household while someone acted for it, newest first.
  app.get('/audit', { preHandler: resident, schema: { querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await listImpersonationAudit(app.db, { actingUserId: request.session.userId }, request.query)),
  );
};
