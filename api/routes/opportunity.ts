import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { FilteredOpportunityQuery, LANGUAGES, MESSAGES, OpportunityFilter } from '../../domain';
import { notFound } from '../errors';
import { requireSession } from '../plugins/auth';
import { getPublished, listFiltered, listPublished } from '../services/opportunities';
import { getPaperApplication } from '../services/opportunity-admin';
import { paperApplication } from '../services/paper-application';

const IdParams = z.object({ id: z.string().uuid('Invalid opportunity id') });

/** The signed-in user when a valid token is sent; null on public pages. */
async function optionalSession(request: FastifyRequest) {
  if (!request.headers.authorization) return null;
  try {
    await requireSession(request);
    return request.session;
  } catch {
    return null;
  }
}

/** `/api/Opportunity`: published opportunities are public (spec section 2, public pages). */
export const opportunityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/published-opportunities', { schema: { querystring: OpportunityFilter } }, async (request, reply) => {
    const list = await listPublished(app.db, request.query);
    return reply.ok(list, list.length === 0 ? MESSAGES.noOpportunitiesFound : 'OK');
  });

  app.get('/filtered-opportunities', { schema: { querystring: FilteredOpportunityQuery } }, async (request, reply) => {
    const session = await optionalSession(request);
    const list = await listFiltered(app.db, request.query, session?.userId ?? null);
    return reply.ok(list, list.length === 0 ? MESSAGES.noOpportunitiesFound : 'OK');
  });

  app.get('/:id/paper-application', { schema: { params: IdParams } }, async (request, reply) => {
    const session = await optionalSession(request);
    const pdf = await getPaperApplication(app.db, app.blobs, request.params.id, session?.userId ?? null, session?.role ?? null);
    return reply.type('application/pdf').header('content-disposition', 'inline; filename="paper-application.pdf"').send(pdf);
  });

  // The application form to print and mail, generated in each of the four languages (public, published only).
  app.get('/:id/paper-application/:language', { schema: { params: IdParams.extend({ language: z.enum(LANGUAGES) }) } }, async (request, reply) => {
    const opportunity = await getPublished(app.db, request.params.id);
    if (!opportunity) throw notFound();
    const pdf = await paperApplication(opportunity, request.params.language);
    return reply
      .type('application/pdf')
      .header('cache-control', 'public, max-age=300')
      .header('content-disposition', `inline; filename="paper-application-${request.params.language}.pdf"`)
      .send(pdf);
  });

  app.get('/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const opportunity = await getPublished(app.db, request.params.id);
    if (!opportunity) throw notFound();
    return reply.ok(opportunity);
  });
};
