import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LEASE_UP_INPUTS } from '../../domain';
import { signedIn } from '../guards';
import * as leaseUp from '../services/lease-up';
import * as actions from '../services/lease-up-actions';
import { ApplicationParams } from './lease-up';
import { Id } from '../../domain/ids';

// The bodies of the applicant's actions are the actions' own inputs (domain's LEASE_UP_INPUTS), named
// by the application in the body where the spec's path does not name it.
const ByApplication = z.object({ applicationId: z.string().uuid() });
const SignBody = z.object({ signatureBase64: z.string().max(1_000_000).optional(), memberId: z.string().uuid().optional() }).nullish();
const IpQuery = z.object({ ipAddress: z.string().max(64).optional() });

/**
 * The applicant's actions of `/api/LeaseUpApplication` beyond the first thread (spec section 7):
 * appointments, unit offers, appeals, additional documents, lease signing, letters, status and counts.
 */
export const leaseUpActionRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE, blobs: app.blobs });

  app.get(
    '/check-application-status/:opportunityId/:userId',
    { preHandler: signedIn('resident_or_manager'), schema: { params: z.object({ opportunityId: Id, userId: Id }) } },
    async (request, reply) => reply.ok(await actions.checkStatus(deps(), request.session, request.params.opportunityId, request.params.userId)),
  );

  app.get('/counts', { preHandler: signedIn('resident_or_manager') }, async (request, reply) => reply.ok(await actions.counts(app.db, request.session)));

  app.get(
    '/getAvailableAppointmentSlots',
    { preHandler: signedIn('resident_or_manager'), schema: { querystring: z.object({ applicationId: z.string().uuid('Invalid application id') }) } },
    async (request, reply) => reply.ok(await actions.availableSlots(deps(), request.session, request.query.applicationId)),
  );

  app.post(
    '/schedule-appointment',
    { preHandler: signedIn('resident'), schema: { body: LEASE_UP_INPUTS.ScheduleAppointment.extend(ByApplication.shape) } },
    async (request, reply) => reply.ok(await actions.scheduleAppointment(deps(), request.session, request.body.applicationId, request.body.slot)),
  );

  app.post(
    '/unit-offer/respond',
    { preHandler: signedIn('resident'), schema: { body: LEASE_UP_INPUTS.RespondToUnitOffer.extend(ByApplication.shape) } },
    async (request, reply) => {
      const { applicationId, offerId, accept } = request.body;
      return reply.ok(await leaseUp.act(deps(), request.session, applicationId, 'RespondToUnitOffer', { offerId, accept }));
    },
  );

  app.post(
    '/file-appeal',
    {
      preHandler: signedIn('resident'),
      schema: { body: LEASE_UP_INPUTS.Appeal.extend(ByApplication.shape) },
    },
    async (request, reply) => {
      const { applicationId, reason, documents } = request.body;
      return reply.ok(await leaseUp.act(deps(), request.session, applicationId, 'Appeal', { ...(reason ? { reason } : {}), ...(documents ? { documents } : {}) }));
    },
  );

  app.post(
    '/submit-additional-documents/:id',
    { preHandler: signedIn('resident'), schema: { params: ApplicationParams, body: LEASE_UP_INPUTS.SubmitAdditionalDocuments } },
    async (request, reply) =>
      reply.ok(await leaseUp.act(deps(), request.session, request.params.id, 'SubmitAdditionalDocuments', { documents: request.body.documents })),
  );

  // UpdateInfo (workflows.md): the household's size and income on this application; no step change.
  app.post(
    '/update-info/:id',
    {
      preHandler: signedIn('resident'),
      schema: { params: ApplicationParams, body: LEASE_UP_INPUTS.UpdateInfo },
    },
    async (request, reply) => reply.ok(await leaseUp.act(deps(), request.session, request.params.id, 'UpdateInfo', request.body)),
  );

  app.post(
    '/sign-lease-document/:id',
    { preHandler: signedIn('resident'), schema: { params: ApplicationParams, querystring: IpQuery, body: SignBody } },
    async (request, reply) =>
      reply.ok(
        await actions.sign(deps(), request.session, request.params.id, 'lease', {
          signatureBase64: request.body?.signatureBase64,
          ipAddress: actions.clientIp(request.query.ipAddress, request.ip),
        }),
      ),
  );

  app.get(
    '/letter/:id/:kind',
    { preHandler: signedIn('resident_or_manager'), schema: { params: ApplicationParams.extend({ kind: z.enum(['tic', 'lease']) }) } },
    async (request, reply) => {
      const pdf = await actions.letterPdf(deps(), request.session, request.params.id, request.params.kind);
      return reply.type('application/pdf').header('content-disposition', `inline; filename="${request.params.kind}.pdf"`).send(pdf);
    },
  );
};

/** `/api/Document/applytenantsignaturetotic/{id}` (PUT; optional ipAddress query): the applicant signs the lease-up TIC. */
export const leaseUpTicSignatureRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/applytenantsignaturetotic/:id',
    { preHandler: signedIn('resident'), schema: { params: ApplicationParams, querystring: IpQuery, body: SignBody } },
    async (request, reply) =>
      reply.ok(
        await actions.sign(
          { db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE, blobs: app.blobs },
          request.session,
          request.params.id,
          'tic',
          { signatureBase64: request.body?.signatureBase64, memberId: request.body?.memberId, ipAddress: actions.clientIp(request.query.ipAddress, request.ip) },
        ),
      ),
  );
};
