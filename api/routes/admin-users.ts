import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminUsersQuery, PageQuery, RoleChangeBody } from '../../domain';
import { signedIn } from '../guards';
import { listAdminChanges } from '../services/admin-audit';
import { changeRole, deactivateUser, listAdminUsers, reactivateUser, resendVerification } from '../services/admin-users';
import { listHouseholdGrants } from '../services/access-grant-views';
import { revokeAccess } from '../services/access-grants';
import { listImpersonationAudit } from '../services/impersonation-audit';
import { Id } from '../../domain/ids';

const userParam = z.object({ userId: Id });

/** `/api/Admin` users (paths chosen here): search, roles, deactivation, verification, audits. */
export const adminUserRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = signedIn('admin');

  app.get('/users', { preHandler: admin, schema: { querystring: AdminUsersQuery } }, async (request, reply) => reply.ok(await listAdminUsers(app.db, request.query)));

  app.put('/users/:userId/role', { preHandler: admin, schema: { params: userParam, body: RoleChangeBody } }, async (request, reply) =>
    reply.ok(await changeRole(app.db, request.session.userId, request.params.userId, request.body.role), 'Role changed'),
  );
  app.post('/users/:userId/deactivate', { preHandler: admin, schema: { params: userParam } }, async (request, reply) =>
    reply.ok(await deactivateUser(app.db, request.session.userId, request.params.userId), 'User deactivated'),
  );
  app.post('/users/:userId/reactivate', { preHandler: admin, schema: { params: userParam } }, async (request, reply) =>
    reply.ok(await reactivateUser(app.db, request.session.userId, request.params.userId), 'User reactivated'),
  );
  app.post('/users/:userId/resend-verification', { preHandler: admin, schema: { params: userParam } }, async (request, reply) =>
    reply.ok(await resendVerification(app.db, request.session.userId, request.params.userId), 'Verification email sent'),
  );
  app.get('/users/:userId/audit', { preHandler: admin, schema: { params: userParam, querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await listAdminChanges(app.db, request.params.userId, request.query)),
  );

  // Consented access seen by admins: a household's grants (revocable), and every impersonated action.
  app.get('/users/:userId/access-grants', { preHandler: admin, schema: { params: userParam, querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await listHouseholdGrants(app.db, request.params.userId, request.query, new Date())),
  );
  app.post('/access-grants/:grantId/revoke', { preHandler: admin, schema: { params: z.object({ grantId: Id }) } }, async (request, reply) =>
    reply.ok(await revokeAccess({ db: app.db, temporal: app.temporal }, { kind: 'admin', userId: request.session.userId }, request.params.grantId, new Date()), 'Access ended'),
  );
  app.get(
    '/impersonation-audit',
    { preHandler: admin, schema: { querystring: PageQuery.extend({ actingUserId: z.string().uuid().optional(), realUserId: z.string().uuid().optional() }) } },
    async (request, reply) => reply.ok(await listImpersonationAudit(app.db, { actingUserId: request.query.actingUserId, realUserId: request.query.realUserId }, request.query)),
  );
};
