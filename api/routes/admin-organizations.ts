import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ORGANIZATION_REQUEST_STATUSES, OrganizationBody, OrganizationKind, PageQuery } from '../../domain';
import { notFound } from '../errors';
import { signedIn } from '../guards';
import { decideOrganizationRequest, listOrganizationRequests } from '../services/organization-requests';
import { Id } from '../../domain/ids';
import {
  assignToOrganization,
  createOrganization,
  getOrganization,
  listOrganizationMembers,
  listOrganizations,
  unassignFromOrganization,
  updateOrganization,
} from '../services/organizations';

const orgParam = z.object({ organizationId: Id });
const memberParams = z.object({ organizationId: Id, userId: Id });

/**
 * `/api/Admin/organizations` (paths chosen here): create and edit organisations,
 * assign managers and ambassadors, and decide applications to join.
 */
export const adminOrganizationRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = signedIn('admin');

  app.get('/', { preHandler: admin, schema: { querystring: PageQuery.extend({ search: z.string().trim().max(100).optional(), kind: OrganizationKind.optional() }) } }, async (request, reply) =>
    reply.ok(await listOrganizations(app.db, request.query)),
  );
  app.post('/', { preHandler: admin, schema: { body: OrganizationBody } }, async (request, reply) => reply.ok(await createOrganization(app.db, request.body), 'Organization created', 201));

  // Applications to join (before /:organizationId so the word is not read as an id).
  app.get('/requests', { preHandler: admin, schema: { querystring: PageQuery.extend({ status: z.enum(ORGANIZATION_REQUEST_STATUSES).default('pending') }) } }, async (request, reply) =>
    reply.ok(await listOrganizationRequests(app.db, request.query)),
  );
  for (const [action, approve] of [['approve', true], ['decline', false]] as const) {
    app.post(`/requests/:requestId/${action}`, { preHandler: admin, schema: { params: z.object({ requestId: Id }) } }, async (request, reply) =>
      reply.ok(await decideOrganizationRequest(app.db, request.session.userId, request.params.requestId, approve)),
    );
  }

  app.get('/:organizationId', { preHandler: admin, schema: { params: orgParam } }, async (request, reply) => {
    const org = await getOrganization(app.db, request.params.organizationId);
    if (!org) throw notFound();
    return reply.ok(org);
  });
  app.put('/:organizationId', { preHandler: admin, schema: { params: orgParam, body: OrganizationBody } }, async (request, reply) =>
    reply.ok(await updateOrganization(app.db, request.params.organizationId, request.body), 'Organization saved'),
  );

  app.get('/:organizationId/members', { preHandler: admin, schema: { params: orgParam, querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await listOrganizationMembers(app.db, request.params.organizationId, request.query)),
  );
  app.post('/:organizationId/members/:userId', { preHandler: admin, schema: { params: memberParams } }, async (request, reply) => {
    await assignToOrganization(app.db, request.session.userId, request.params.organizationId, request.params.userId);
    return reply.ok(request.params, 'Assigned');
  });
  app.delete('/:organizationId/members/:userId', { preHandler: admin, schema: { params: memberParams } }, async (request, reply) => {
    await unassignFromOrganization(app.db, request.session.userId, request.params.organizationId, request.params.userId);
    return reply.ok(request.params, 'Removed');
  });
};
