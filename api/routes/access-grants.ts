import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PageQuery } from '../../domain';
import { signedIn } from '../guards';
import { refuseWhileImpersonating } from '../plugins/auth';
import { grantInSettings, listHouseholdGrants, revokeAccess } from '../services/access-grants';
import { listImpersonationAudit } from '../services/impersonation-audit';

const grantParam = z.object({ grantId: z.string().uuid() });

/**
 * `/api/AccessGrants` (paths chosen here): the household's side of consented access, shown in its
 * settings. Granting and revoking are the household's own acts, so never while someone acts for it.
 */
export const accessGrantRoutes: FastifyPluginAsyncZod = async (app) => {
  const resident = signedIn('resident');

  app.get('/', { preHandler: resident, schema: { querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await listHouseholdGrants(app.db, request.session.userId, request.query, new Date())),
  );

  app.post('/:grantId/grant', { preHandler: [resident, refuseWhileImpersonating], schema: { params: grantParam } }, async (request, reply) =>
    reply.ok(await grantInSettings(app.db, request.session.userId, request.params.grantId, new Date()), 'Access granted'),
  );

  app.post('/:grantId/revoke', { preHandler: [resident, refuseWhileImpersonating], schema: { params: grantParam } }, async (request, reply) =>
    reply.ok(await revokeAccess(app.db, { kind: 'household', userId: request.session.userId }, request.params.grantId, new Date()), 'Access ended'),
  );

  // Everything done for the household while someone acted for it, newest first.
  app.get('/audit', { preHandler: resident, schema: { querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await listImpersonationAudit(app.db, { actingUserId: request.session.userId }, request.query)),
  );
};
