import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CheckInMonthsBody, CheckInTokenBody, DeclineSizesBody, ManagerRestoreBody, WaitlistFilter } from '../../domain/waitlist-check-ins';
import { idOf } from '../../domain/ids';
import { signedIn } from '../guards';
import * as waitlist from '../services/waitlist';

const ApplicationParams = z.object({ applicationId: idOf('Invalid application id') });
const OpportunityParams = z.object({ opportunityId: idOf('Invalid opportunity id') });
const ManagedParams = OpportunityParams.extend({ applicationId: idOf('Invalid application id') });
const Page = z.object({ state: WaitlistFilter.default('active'), after: z.coerce.number().int().min(0).max(10_000_000).default(0), limit: z.coerce.number().int().min(1).max(500).default(100) });

const HOUSEHOLD_ANSWERS = {
  404: '`notFound`: no ranked application of the household has this id.',
  409: '`waitlistPlaceInactive`, `waitlistPlaceRemoved`, `waitlistNoCheckIn` or `waitlistCannotRestore`: the place is not in a state this answer fits.',
};
const LINK_ANSWERS = {
  404: '`waitlistLinkInvalid`: the link is unknown or expired.',
  409: '`waitlistPlaceInactive`, `waitlistPlaceRemoved`, `waitlistNoCheckIn` or `waitlistCannotRestore`: the place is not in a state this answer fits.',
};
const MANAGER_ANSWERS = {
  404: '`notFound`: no such lottery, or no ranked application of it with this id.',
  409: '`waitlistNotDrawn`, `waitlistCannotRestore` or `waitlistNoCheckIn`.',
};

/**
 * `/api/Waitlist`: a waitlisted household keeps its place (signed in from My
 * Applications, or signed out by the link of its notice: the token travels in the body, never in an
 * address, and the page's GET shows a button that posts), restores it, and declines unit sizes it
 * cannot use; a manager sees the waitlist by state, restores a place with a reason, records a returned
 * check-in letter, and sets the months between check-ins.
 */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/mine', { preHandler: signedIn('resident') }, async (request, reply) => reply.ok(await waitlist.myStandings(app.db, request.session)));
  app.post('/mine/:applicationId/ConfirmInterest', { preHandler: signedIn('resident'), schema: { params: ApplicationParams }, config: { openapi: { statuses: HOUSEHOLD_ANSWERS } } }, async (request, reply) =>
    reply.ok(await waitlist.confirmMine(app.db, request.session, request.params.applicationId)),
  );
  app.post('/mine/:applicationId/RestorePlace', { preHandler: signedIn('resident'), schema: { params: ApplicationParams }, config: { openapi: { statuses: HOUSEHOLD_ANSWERS } } }, async (request, reply) =>
    reply.ok(await waitlist.restoreMine(app.db, request.session, request.params.applicationId)),
  );
  app.put(
    '/mine/:applicationId/declined-sizes',
    { preHandler: signedIn('resident'), schema: { params: ApplicationParams, body: DeclineSizesBody }, config: { openapi: { statuses: { 404: HOUSEHOLD_ANSWERS[404], 422: '`unitSizeNotOffered`: the opportunity has no unit of a size named.' } } } },
    async (request, reply) => reply.ok(await waitlist.declineMine(app.db, request.session, request.params.applicationId, request.body.declined)),
  );

  // The notice's link: no session; the token is the permission, for its one application.
  app.post('/link', { schema: { body: CheckInTokenBody }, config: { openapi: { statuses: { 404: LINK_ANSWERS[404] } } } }, async (request, reply) => reply.ok(await waitlist.linkView(app.db, request.body.token)));
  app.post('/link/ConfirmInterest', { schema: { body: CheckInTokenBody }, config: { openapi: { statuses: LINK_ANSWERS } } }, async (request, reply) =>
    reply.ok(await waitlist.linkAct(app.db, request.body.token, 'ConfirmInterest')),
  );
  app.post('/link/RestorePlace', { schema: { body: CheckInTokenBody }, config: { openapi: { statuses: LINK_ANSWERS } } }, async (request, reply) =>
    reply.ok(await waitlist.linkAct(app.db, request.body.token, 'RestorePlace')),
  );

  app.get('/:opportunityId', { preHandler: signedIn('manager'), schema: { params: OpportunityParams, querystring: Page }, config: { openapi: { statuses: MANAGER_ANSWERS } } }, async (request, reply) =>
    reply.ok(await waitlist.managerPage(app.db, request.session, request.params.opportunityId, request.query)),
  );
  app.put(
    '/:opportunityId/check-in-months',
    { preHandler: signedIn('manager'), schema: { params: OpportunityParams, body: CheckInMonthsBody }, config: { openapi: { statuses: MANAGER_ANSWERS } } },
    async (request, reply) =>
      reply.ok(await waitlist.setCheckInMonths({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE }, request.session, request.params.opportunityId, request.body.months)),
  );
  app.post(
    '/:opportunityId/:applicationId/RestorePlace',
    { preHandler: signedIn('manager'), schema: { params: ManagedParams, body: ManagerRestoreBody }, config: { openapi: { statuses: MANAGER_ANSWERS } } },
    async (request, reply) => reply.ok(await waitlist.managerRestore(app.db, request.session, request.params.opportunityId, request.params.applicationId, request.body.reason)),
  );
  app.post('/:opportunityId/:applicationId/RecordReturnedLetter', { preHandler: signedIn('manager'), schema: { params: ManagedParams }, config: { openapi: { statuses: MANAGER_ANSWERS } } }, async (request, reply) =>
    reply.ok(await waitlist.managerReturnedLetter(app.db, request.session, request.params.opportunityId, request.params.applicationId)),
  );
};
