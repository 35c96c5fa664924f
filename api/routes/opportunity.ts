import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { FilteredOpportunityQuery, LANGUAGES, MESSAGES, OpportunityFilter, type OpportunitySummary } from '../../domain';
import { notFound } from '../errors';
import { requireSession } from '../plugins/auth';
import { getPublished, listFiltered, listPublished } from '../services/opportunities';
import { getPaperApplication } from '../services/opportunity-admin';
import { paperApplication } from '../services/paper-application';
import { idOf } from '../../domain/ids';

const IdParams = z.object({ id: idOf('Invalid opportunity id') });

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
  const listEnvelope = (list: OpportunitySummary[]) => ({ status: 200, body: { status: 200, message: list.length === 0 ? MESSAGES.noOpportunitiesFound : 'OK', data: list } });

  // The same for everyone: served from the replica's copy (api/services/public-listing-cache.ts).
  app.get('/published-opportunities', { schema: { querystring: OpportunityFilter } }, async (request, reply) =>
    app.publicListing.serve(request, reply, `list ${JSON.stringify(request.query)}`, async () => listEnvelope(await listPublished(app.db, request.query))),
  );

  app.get('/filtered-opportunities', { schema: { querystring: FilteredOpportunityQuery } }, async (request, reply) => {
    const session = await optionalSession(request);
    // A signed-in person's list marks their favourites: theirs alone, never kept.
    if (!session) return app.publicListing.serve(request, reply, `filtered ${JSON.stringify(request.query)}`, async () => listEnvelope(await listFiltered(app.db, request.query, null)));
    const list = await listFiltered(app.db, request.query, session.userId);
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

  app.get('/:id', { schema: { params: IdParams } }, async (request, reply) =>
    app.publicListing.serve(request, reply, `detail ${request.params.id}`, async () => {
      const opportunity = await getPublished(app.db, request.params.id);
      // Not kept: an unknown or unpublished opportunity is asked for rarely, and a publish must show at once.
      if (!opportunity) throw notFound();
      return { status: 200, body: { status: 200, message: 'OK', data: opportunity } };
    }),
  );
};
