import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FeedCard, TransitData } from '../../domain';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { GtfsId } from '../../domain/ids';

const Params = z.object({
  /** The MTA subway feed (1234567, ace, bdfm, g, jz, nqrw, l, si). */
  feedId: GtfsId,
  /** A parent stop id of that feed (e.g. 117), as in the MTA's static GTFS. */
  stopId: GtfsId,
});

/**
 * `GET /api/GTFSRealtimeFeed/{feed}/{stop}` (spec section 7): the next subway arrivals at a stop,
 * from the feed the server fetches on its schedule (never fetched for the request). Signed-in
 * users only; an unknown feed or a stop the portal does not follow is a 404 that says which.
 */
export const gtfsRealtimeFeedRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/:feedId/:stopId', { preHandler: signedIn('any'), schema: { params: Params } }, async (request, reply) => {
    const card = app.feeds.arrivals(request.params.feedId, request.params.stopId);
    if (card === 'unknownFeed') throw new HttpError(404, 'unknownTransitFeed');
    if (card === 'unknownStop') throw new HttpError(404, 'unknownTransitStop');
    return reply.ok<FeedCard<TransitData>>(card);
  });
};
