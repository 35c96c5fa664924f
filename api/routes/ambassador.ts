import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccessCodeBody, AccessRequestBody, AmbassadorUsersQuery, CreateResidentBody, PageQuery } from '../../domain';
import { forbidden } from '../errors';
import { signedIn } from '../guards';
import { grantByCode, requestAccess, revokeAccess } from '../services/access-grants';
import { ambassadorDashboard, ambassadorUserDashboard, ambassadorUsers } from '../services/ambassador';
import { assignToOrganization, listAmbassadorOrganizations, unassignFromOrganization } from '../services/organizations';
import { perAddress } from '../services/rate-limits';
import { createResidentAccount } from '../services/resident-accounts';
import { MINUTE } from '../../domain/time';
import { Id } from '../../domain/ids';

const ambassadorParam = z.object({ ambassadorId: Id });

/**
 * `/api/Ambassador` (spec section 7: getambessdordashboard/{id}, getambessdorUsers/{id},
 * getambessdororglist/{id}, saveambassadororgmapping/{a}/{b}; the other paths are chosen here).
 * `{id}` is the ambassador: only their own, and they see only their organisations' residents.
 */
export const ambassadorRoutes: FastifyPluginAsyncZod = async (app) => {
  const ambassador = signedIn('ambassador');
  const own = (ambassadorId: string, sessionUserId: string) => {
    if (ambassadorId !== sessionUserId) throw forbidden();
  };

  app.get('/getambessdordashboard/:ambassadorId', { preHandler: ambassador, schema: { params: ambassadorParam } }, async (request, reply) => {
    own(request.params.ambassadorId, request.session.userId);
    return reply.ok(await ambassadorDashboard(app.db, request.session.userId, new Date()));
  });

  app.get('/getambessdorUsers/:ambassadorId', { preHandler: ambassador, schema: { params: ambassadorParam, querystring: AmbassadorUsersQuery } }, async (request, reply) => {
    own(request.params.ambassadorId, request.session.userId);
    return reply.ok(await ambassadorUsers(app.db, request.session.userId, request.query, new Date()));
  });

  app.get(
    '/getambessdororglist/:ambassadorId',
    { preHandler: ambassador, schema: { params: ambassadorParam, querystring: PageQuery.extend({ search: z.string().trim().max(100).optional() }) } },
    async (request, reply) => {
      own(request.params.ambassadorId, request.session.userId);
      return reply.ok(await listAmbassadorOrganizations(app.db, request.session.userId, request.query));
    },
  );

  // Admins map an ambassador to an organisation, and take the mapping away.
  const mapping = { preHandler: signedIn('admin'), schema: { params: z.object({ ambassadorId: Id, organizationId: Id }) } };
  app.post('/saveambassadororgmapping/:ambassadorId/:organizationId', mapping, async (request, reply) => {
    await assignToOrganization(app.db, request.session.userId, request.params.organizationId, request.params.ambassadorId);
    return reply.ok(request.params, 'Saved');
  });
  app.delete('/saveambassadororgmapping/:ambassadorId/:organizationId', mapping, async (request, reply) => {
    await unassignFromOrganization(app.db, request.session.userId, request.params.organizationId, request.params.ambassadorId);
    return reply.ok(request.params, 'Removed');
  });

  app.post('/users', { preHandler: ambassador, schema: { body: CreateResidentBody } }, async (request, reply) =>
    reply.ok(await createResidentAccount(app.db, request.session.userId, request.body), 'Account created', 201),
  );

  app.get(
    '/:ambassadorId/users/:userId/dashboard',
    { preHandler: ambassador, schema: { params: z.object({ ambassadorId: Id, userId: Id }) } },
    async (request, reply) => {
      own(request.params.ambassadorId, request.session.userId);
      return reply.ok(await ambassadorUserDashboard(app.db, request.session.userId, request.params.userId, new Date()));
    },
  );

  app.post('/access-requests', { preHandler: [ambassador, perAddress(app, 'access-request', 20, MINUTE)], schema: { body: AccessRequestBody } }, async (request, reply) =>
    reply.ok(await requestAccess(app.db, request.session.userId, request.body, new Date()), 'Access requested'),
  );

  app.post('/access-requests/grant-by-code', { preHandler: [ambassador, perAddress(app, 'access-code', 30, MINUTE)], schema: { body: AccessCodeBody } }, async (request, reply) =>
    reply.ok(await grantByCode({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE }, request.session.userId, request.body, new Date()), 'Access granted'),
  );

  // An ambassador may end their organisation's access themselves (e.g. the household asked at the desk).
  app.post('/access-grants/:grantId/revoke', { preHandler: ambassador, schema: { params: z.object({ grantId: Id }) } }, async (request, reply) =>
    reply.ok(await revokeAccess({ db: app.db, temporal: app.temporal }, { kind: 'ambassador', userId: request.session.userId }, request.params.grantId, new Date()), 'Access ended'),
  );
};
