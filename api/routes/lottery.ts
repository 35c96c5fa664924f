import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOTTERY_INPUTS, LotteryManagerAction } from '../../domain';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import * as lottery from '../services/lottery';
import { idOf } from '../../domain/ids';

const Params = z.object({ opportunityId: idOf('Invalid opportunity id') });
const Page = z.object({ after: z.coerce.number().int().min(0).max(10_000_000).default(0), limit: z.coerce.number().int().min(1).max(500).default(100) });

/**
 * `/api/OpportunityLottery` (not in the spec's list): a manager runs the lottery of an
 * opportunity of their organisation. Each action is the lottery workflow's Update of the same name.
 */
export const lotteryRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });

  app.get('/:opportunityId', { preHandler: signedIn('manager'), schema: { params: Params } }, async (request, reply) =>
    reply.ok(await lottery.lotteryView(deps(), request.session, request.params.opportunityId)),
  );

  app.get('/:opportunityId/ranked', { preHandler: signedIn('manager'), schema: { params: Params, querystring: Page } }, async (request, reply) =>
    reply.ok(await lottery.rankedPage(app.db, request.session, request.params.opportunityId, request.query.after, request.query.limit)),
  );

  /** The whole ranked list as CSV, streamed page by page (no timeout at 100,000 rows). */
  app.get('/:opportunityId/ranked.csv', { preHandler: signedIn('manager'), schema: { params: Params } }, async (request, reply) => {
    const rows = lottery.rankedCsv(app.db, request.session, request.params.opportunityId);
    // The first chunk checks who is asking before any header is sent.
    const first = await rows.next();
    const body = Readable.from(
      (async function* () {
        if (!first.done) yield first.value;
        yield* rows;
      })(),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="lottery-${request.params.opportunityId}.csv"`)
      .header('cache-control', 'no-store')
      .send(body);
  });

  app.post(
    '/:opportunityId/:action',
    // A paper application is entered with its form (POST /:opportunityId/paper-applications), never by this generic action.
    { preHandler: signedIn('manager'), schema: { params: Params.extend({ action: LotteryManagerAction.exclude(['EnterPaperApplication']) }), body: z.record(z.string(), z.unknown()).nullish() } },
    async (request, reply) => {
      const { action, opportunityId } = request.params;
      const parsed = LOTTERY_INPUTS[action].safeParse(request.body ?? {});
      if (!parsed.success) throw new HttpError(400, 'validation', parsed.error.issues[0]?.message);
      return reply.ok(await lottery.actOnLottery(deps(), request.session, opportunityId, action, parsed.data as never));
    },
  );
};
