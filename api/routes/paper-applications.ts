import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClaimInput, MarkLetterInput, PrintQueueQuery } from '../../domain';
import { DAY, MINUTE } from '../../domain/time';
import { HttpError } from '../errors';
import { refuseWhileImpersonating } from '../plugins/auth';
import { signedIn } from '../guards';
import { managedLottery } from '../services/lottery';
import { enterPaperApplication } from '../services/paper-entry';
import { claimPaperApplication, letterPdf, listDuplicatePairs, markLetter, printQueue, reissueClaimCode } from '../services/paper-office';
import { perUserFailures } from '../services/rate-limits';
import { UPLOAD_LIMITS, readMultipart } from './documents';
import { idOf } from '../../domain/ids';

const Params = z.object({ opportunityId: idOf('Invalid opportunity id') });
const LetterParams = z.object({ letterId: idOf('Invalid letter id') });
const ApplicationParams = z.object({ applicationId: idOf('Invalid application id') });
const PairsQuery = z.object({ after: z.string().max(100).optional(), limit: z.coerce.number().int().min(1).max(100).default(50) });

/**
 * `/api/OpportunityLottery/:id/paper-applications` and `/duplicates`: a manager enters a mailed
 * form (multipart: the form as JSON in the field `application`, the scan as the one file) and sees
 * the possible duplicates (deciding one is the lottery's ResolveDuplicate action).
 */
export const paperApplicationRoutes: FastifyPluginAsyncZod = async (app) => {
  // The form's JSON is larger than a document upload's fields; one file, the scan.
  await app.register(fastifyMultipart, { limits: { ...UPLOAD_LIMITS, files: 1, fieldSize: 64 * 1024 } });
  const manager = signedIn('manager');
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE, blobs: app.blobs });

  app.post('/:opportunityId/paper-applications', { preHandler: manager, schema: { params: Params } }, async (request, reply) => {
    // Who asks before the upload is read: a manager of another organisation is refused without it.
    await managedLottery(app.db, request.session, request.params.opportunityId);
    const { fields, files } = await readMultipart(request);
    let form: unknown;
    try {
      form = JSON.parse(fields.application ?? '');
    } catch {
      throw new HttpError(400, 'validation', 'application: the form is required as JSON');
    }
    return reply.ok(await enterPaperApplication(deps(), request.session, request.params.opportunityId, form, files), 'Entered', 201);
  });

  app.get('/:opportunityId/duplicates', { preHandler: manager, schema: { params: Params, querystring: PairsQuery } }, async (request, reply) =>
    reply.ok(await listDuplicatePairs(app.db, request.session, request.params.opportunityId, request.query.after, request.query.limit)),
  );
};

/** `/api/PrintQueue`: the office's letters to print and mail for households without a login. */
export const printQueueRoutes: FastifyPluginAsyncZod = async (app) => {
  const manager = signedIn('manager');
  app.get('/', { preHandler: manager, schema: { querystring: PrintQueueQuery } }, async (request, reply) => reply.ok(await printQueue(app.db, request.session, request.query)));
  app.post('/:letterId/mark', { preHandler: manager, schema: { params: LetterParams, body: MarkLetterInput } }, async (request, reply) =>
    reply.ok(await markLetter(app.db, app.blobs, request.session, request.params.letterId, request.body.mark)),
  );
  app.get('/:letterId/pdf', { preHandler: manager, schema: { params: LetterParams }, config: { openapi: { refusals: { 410: ['letterPurged'] } } } }, async (request, reply) => {
    const pdf = await letterPdf(app.db, app.blobs, request.session, request.params.letterId);
    return reply.header('content-type', 'application/pdf').header('cache-control', 'no-store').header('content-disposition', `inline; filename="letter-${request.params.letterId}.pdf"`).send(pdf);
  });
};

/**
 * `/api/PaperApplication/claim`: a household entered from paper takes its application into the
 * signed-in account, with its letter's code and its head's date of birth. Codes are guessable (40
 * bits), so wrong ones are counted as sign-in's wrong passwords are: per account and per client
 * address, in PostgreSQL for every replica; five wrong in a day from one account and it waits.
 * `/api/PaperApplication/:applicationId/claim-code`: the office issues the household a new code.
 */
export const paperClaimRoutes: FastifyPluginAsyncZod = async (app) => {
  const failures = perUserFailures(app, 'paper-claim', {
    user: { free: 5, windowMs: DAY, firstDelayMs: MINUTE, maxDelayMs: DAY },
    // An address may be a library's or a shelter's: more households share it.
    address: { free: 20, windowMs: DAY, firstDelayMs: MINUTE, maxDelayMs: DAY },
  });
  app.post('/claim', { preHandler: [signedIn('resident'), refuseWhileImpersonating, failures.guard], schema: { body: ClaimInput }, config: { openapi: { refusals: { 404: ['invalidClaimCode'], 409: ['alreadyHasHousehold'], 410: ['claimCodeExpired'] } } } }, async (request, reply) => {
    try {
      const claimed = await claimPaperApplication(app.db, request.session, request.body);
      await failures.succeed(request);
      return reply.ok(claimed, 'Claimed');
    } catch (error) {
      if (error instanceof HttpError && error.code === 'invalidClaimCode') await failures.fail(request);
      throw error;
    }
  });
  app.post('/:applicationId/claim-code', { preHandler: signedIn('manager'), schema: { params: ApplicationParams }, config: { openapi: { refusals: { 409: ['alreadyClaimed'] } } } }, async (request, reply) =>
    reply.ok(await reissueClaimCode(app.db, app.blobs, request.session, request.params.applicationId), 'Issued', 201),
  );
};
