import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { InvitationLogParams, InvitationLogQuery, LotteryResultsParams, LotteryResultsQuery, type InvitationLogPage, type LotteryResults } from '../../domain';
import { HttpError, notFound } from '../errors';
import { createVerificationCache, findPlace, findPublishedLottery, invitationLogPage, listRanks, publication } from '../services/lottery-results';

/**
 * `GET /api/lottery/:opportunityId/results`, public like the opportunity it belongs to:
 * the draw's published values and whether they verify; with `?logNumber=`, that application's rank
 * and group positions; otherwise a page of log numbers and ranks (`?after=<rank>&limit=`).
 * Before the draw only the seed hash is published, and asking for ranks is a 404.
 *
 * `GET /api/lottery/:opportunityId/invitation-log?after=<line>&limit=`: the invitation log a page at
 * a time, every invitation and pass-over by log number with its reason code, and the published head.
 */
export const lotteryResultsRoutes: FastifyPluginAsyncZod = async (app) => {
  const verified = createVerificationCache(app.db);

  app.get('/:opportunityId/results', { schema: { params: LotteryResultsParams, querystring: LotteryResultsQuery } }, async (request, reply) => {
    const { opportunityId } = request.params;
    const { logNumber, after, limit } = request.query;
    const row = await findPublishedLottery(app.db, opportunityId);
    if (!row) throw notFound();
    const drawn = row.drawn_at !== null && row.result_hash !== null;
    if (!drawn && (logNumber !== undefined || after !== undefined)) throw new HttpError(404, 'notFound', 'The lottery has not been drawn yet');

    const lottery = publication(opportunityId, row, drawn ? await verified(opportunityId, row.result_hash!, row.invitation_log_head) : null);
    let place = null;
    if (logNumber !== undefined) {
      place = await findPlace(app.db, opportunityId, logNumber);
      if (!place) throw new HttpError(404, 'notFound', 'No ranked application has this log number');
    }
    const ranks = drawn && logNumber === undefined ? await listRanks(app.db, opportunityId, after ?? 0, limit) : null;
    return reply.ok<LotteryResults>({ lottery, place, ranks });
  });

  app.get('/:opportunityId/invitation-log', { schema: { params: InvitationLogParams, querystring: InvitationLogQuery } }, async (request, reply) => {
    const { opportunityId } = request.params;
    const row = await findPublishedLottery(app.db, opportunityId);
    if (!row) throw notFound();
    if (row.drawn_at === null || row.result_hash === null) throw new HttpError(404, 'notFound', 'The lottery has not been drawn yet');
    return reply.ok<InvitationLogPage>(await invitationLogPage(app.db, row, opportunityId, request.query.after ?? 0, request.query.limit));
  });
};
