import { z } from 'zod';
import { holdsMarkup } from '../services/file-content';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OpportunityInput } from '../../domain';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import * as admin from '../services/opportunity-admin';
import { idOf } from '../../domain/ids';

const IdParams = z.object({ id: idOf('Invalid opportunity id') });
const PDF_MAGIC = Buffer.from('%PDF-');

/**
 * Managers of the owning organisation create, edit and publish opportunities (under /api/Opportunity;
 * the spec shows no paths for this, so these extend the group). A manager of another organisation
 * gets 403; published ones are then public through opportunityRoutes.
 */
export const opportunityAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  // A manager's change shows on this replica's public pages at once (other replicas see the counter move).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400) app.publicListing.invalidate();
  });
  app.get('/manage/list', { preHandler: signedIn('manager') }, async (request, reply) => reply.ok(await admin.listManaged(app.db, request.session.userId)));

  app.get('/manage/:id', { preHandler: signedIn('manager'), schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await admin.managed(app.db, request.session.userId, request.params.id)),
  );

  app.post('/manage', { preHandler: signedIn('manager'), schema: { body: OpportunityInput } }, async (request, reply) =>
    reply.ok(await admin.createOpportunity(app.db, request.session.userId, request.body), 'Opportunity created', 201),
  );

  app.put('/manage/:id', { preHandler: signedIn('manager'), schema: { params: IdParams, body: OpportunityInput } }, async (request, reply) =>
    reply.ok(await admin.updateOpportunity(app.db, request.session.userId, request.params.id, request.body)),
  );

  app.post(
    '/manage/:id/publish',
    { preHandler: signedIn('manager'), schema: { params: IdParams, body: z.object({ published: z.boolean() }).nullish() } },
    async (request, reply) => reply.ok(
        await admin.setPublished(app.db, request.session.userId, request.params.id, request.body?.published ?? true, {
          db: app.db,
          temporal: app.temporal,
          taskQueue: app.config.TEMPORAL_TASK_QUEUE,
        }),
      ),
  );

  app.put(
    '/manage/:id/paper-application',
    { preHandler: signedIn('manager'), bodyLimit: 12 * 1024 * 1024, schema: { params: IdParams, body: z.object({ fileBase64: z.string().min(8).max(11_000_000) }) } },
    async (request, reply) => {
      const pdf = Buffer.from(request.body.fileBase64.replace(/^data:application\/pdf;base64,/, ''), 'base64');
      if (!pdf.subarray(0, 5).equals(PDF_MAGIC) || holdsMarkup(pdf)) throw new HttpError(400, 'validation', 'The paper application must be a PDF file');
      return reply.ok(await admin.putPaperApplication(app.db, app.blobs, request.session.userId, request.params.id, pdf));
    },
  );
};
