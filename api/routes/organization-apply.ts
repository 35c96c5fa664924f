import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OrganizationApplyBody, PageQuery } from '../../domain';
import { signedIn } from '../guards';
import { applyToOrganization, myPendingRequests } from '../services/organization-requests';
import { ambassadorOrganizationIds, listOrganizations } from '../services/organizations';

/**
 * `/api/Organization` (paths chosen here): spec section 2's page for users with no linked
 * organisation. Managers and ambassadors see whether they are linked, the organisations they may
 * apply to (names only), and apply.
 */
export const organizationApplyRoutes: FastifyPluginAsyncZod = async (app) => {
  const staff = signedIn('manager_or_ambassador');

  app.get('/mine', { preHandler: staff }, async (request, reply) => {
    const ids = await ambassadorOrganizationIds(app.db, request.session.userId);
    return reply.ok({ linked: ids.length > 0, organizationIds: ids, pendingRequests: await myPendingRequests(app.db, request.session.userId) });
  });

  app.get('/directory', { preHandler: staff, schema: { querystring: PageQuery.extend({ search: z.string().trim().max(100).optional() }) } }, async (request, reply) => {
    const page = await listOrganizations(app.db, request.query);
    return reply.ok({ items: page.items.map((o) => ({ organizationId: o.organizationId, name: o.name, kind: o.kind })), nextCursor: page.nextCursor });
  });

  app.post('/apply', { preHandler: staff, schema: { body: OrganizationApplyBody } }, async (request, reply) =>
    reply.ok(await applyToOrganization(app.db, request.session.userId, request.body), 'Application sent', 201),
  );
};
