import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountDetailsInput, ExtractionQuery } from '../../domain';
import { signedIn } from '../guards';
import { ensureOwnHousehold } from '../services/household-access';
import { getExtraction, requestExtraction } from '../services/extraction';
import { readHousehold } from './household-helpers';

/**
 * `/api/v1/account-details` (spec section 7, AI extraction). POST asks for the
 * figures of one of the household's bank statements or pay stubs: a workflow reads them off the
 * request path, so the answer is 202 with the reading pending (or as it stands). GET answers the
 * reading, like HouseholdAssets/GetAiExtractedData.
 */
export const accountDetailsRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });
  app.post('/', { preHandler: signedIn('resident'), schema: { body: AccountDetailsInput } }, async (request, reply) => {
    const household = await ensureOwnHousehold(app.db, request.session);
    const reading = await requestExtraction(deps(), household.id, request.body.documentId);
    return reply.ok(reading, reading.status === 'pending' ? 'Reading the document' : 'Read', reading.status === 'pending' ? 202 : 200);
  });
  app.get('/', { preHandler: signedIn('resident_or_manager'), schema: { querystring: ExtractionQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => getExtraction(app.db, h, request.query.documentId))),
  );
};
