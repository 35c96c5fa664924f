import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BulkResultsQuery, CreateBulkBatchBody, PageQuery } from '../../domain';
import { signedIn } from '../guards';
import { batchDetail, batchResults, cancelBatch, createBatch, listBatches } from '../services/bulk-actions';
import { idOf } from '../../domain/ids';

const IdParams = z.object({ id: idOf('Invalid id') });

/**
 * `/api/BulkActions` (not in the spec, paths chosen here): a manager's bulk action
 * on applications of their organisation, its progress, its per-case results, and cancelling it.
 * Only managers; each batch is readable and cancellable by the managers of its organisation.
 */
export const bulkActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });
  const manager = signedIn('manager');

  app.post('/', { preHandler: manager, schema: { body: CreateBulkBatchBody } }, async (request, reply) =>
    reply.ok(await createBatch(deps(), request.session, request.body), 'Bulk action started', 201),
  );

  app.get('/', { preHandler: manager, schema: { querystring: PageQuery } }, async (request, reply) => reply.ok(await listBatches(app.db, request.session, request.query)));

  app.get('/:id', { preHandler: manager, schema: { params: IdParams } }, async (request, reply) => reply.ok(await batchDetail(app.db, request.session, request.params.id)));

  app.get('/:id/results', { preHandler: manager, schema: { params: IdParams, querystring: BulkResultsQuery } }, async (request, reply) =>
    reply.ok(await batchResults(app.db, request.session, request.params.id, request.query)),
  );

  app.post('/:id/cancel', { preHandler: manager, schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await cancelBatch(deps(), request.session, request.params.id), 'Bulk action cancelled'),
  );
};
