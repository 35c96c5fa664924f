import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OpportunityFilter } from '../../domain';
import { notFound } from '../errors';
import { getPublished, listPublished } from '../services/opportunities';

/** `/api/Opportunity`: published opportunities are public (spec section 2, public pages). */
export const opportunityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/published-opportunities', { schema: { querystring: OpportunityFilter } }, async (request, reply) => {
    const list = await listPublished(app.db, request.query);
    return reply.ok(list, list.length === 0 ? 'No opportunities found for search criteria' : 'OK');
  });

  app.get('/:id', { schema: { params: z.object({ id: z.string().uuid('Invalid opportunity id') }) } }, async (request, reply) => {
    const opportunity = await getPublished(app.db, request.params.id);
    if (!opportunity) throw notFound();
    return reply.ok(opportunity);
  });
};
