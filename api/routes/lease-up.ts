import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LEASE_UP_INPUTS, ApplicationListQuery, ApplyBody, ManagerActionName, OfferUnitBody } from '../../domain';
import { parseBody } from '../errors';
import { signedIn } from '../guards';
import { listApplications } from '../services/application-list';
import * as leaseUp from '../services/lease-up';
import { offerableUnits, offerUnits } from '../services/lease-up-actions';
import { idOf } from '../../domain/ids';

export const ApplicationParams = z.object({ id: idOf('Invalid application id') });

/** `/api/LeaseUpApplication` (spec section 7). Every action becomes the workflow Update of its name. */
export const leaseUpRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });

  app.post('/apply', { preHandler: signedIn('resident'), schema: { body: ApplyBody } }, async (request, reply) =>
    reply.ok(await leaseUp.apply(deps(), request.session, request.body), 'Application submitted', 201),
  );

  // A page at a time (`?cursor=&limit=`, with `search` and, for managers, `opportunityId`): `{ items, nextCursor }`.
  app.get('/getApplications', { preHandler: signedIn('resident_or_manager'), schema: { querystring: ApplicationListQuery } }, async (request, reply) =>
    reply.ok(await listApplications(app.db, request.session, request.query)),
  );

  app.get('/getDetailsById/:id', { preHandler: signedIn('resident_or_manager'), schema: { params: ApplicationParams } }, async (request, reply) =>
    reply.ok(await leaseUp.detail(deps(), request.session, request.params.id)),
  );

  app.get('/timeline/:id', { preHandler: signedIn('resident_or_manager'), schema: { params: ApplicationParams } }, async (request, reply) => {
    const view = await leaseUp.detail(deps(), request.session, request.params.id);
    return reply.ok({ currentStep: view.currentStep, status: view.status, timeline: view.timeline });
  });

  // The units the manager may offer on this application (not held by another active application).
  app.get('/offerable-units/:id', { preHandler: signedIn('manager'), schema: { params: ApplicationParams } }, async (request, reply) =>
    reply.ok({ units: await offerableUnits(deps(), request.session, request.params.id) }),
  );

  app.post(
    '/updateleaseapplicationstatus/:id/:action',
    {
      preHandler: signedIn('manager'),
      // The body is the named action's own input (checked below, once the action is known).
      schema: { params: ApplicationParams.extend({ action: ManagerActionName }), body: z.record(z.string(), z.unknown()).nullish() },
    },
    async (request, reply) => {
      const { id, action } = request.params;
      if (action === 'OfferUnit') return reply.ok(await offerUnits(deps(), request.session, id, parseBody(OfferUnitBody, request.body)));
      return reply.ok(await leaseUp.act(deps(), request.session, id, action, parseBody(LEASE_UP_INPUTS[action], request.body) as never));
    },
  );

  app.post(
    '/background-consent/:id/:consent',
    { preHandler: signedIn('resident'), schema: { params: ApplicationParams.extend({ consent: z.enum(['true', 'false']) }) } },
    async (request, reply) => {
      const action = request.params.consent === 'true' ? 'ProvideConsentForScreening' : 'DenyConsentForScreening';
      return reply.ok(await leaseUp.act(deps(), request.session, request.params.id, action, {}));
    },
  );

  app.post('/withdraw-application/:id', { preHandler: signedIn('resident'), schema: { params: ApplicationParams } }, async (request, reply) =>
    reply.ok(await leaseUp.act(deps(), request.session, request.params.id, 'Withdraw', {})),
  );
};

/** `/api/Household/submit-applicant-profile/{id}`: the applicant submits the profile to an application. */
export const householdApplicationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/submit-applicant-profile/:id',
    { preHandler: signedIn('resident'), schema: { params: ApplicationParams } },
    async (request, reply) =>
      reply.ok(
        await leaseUp.act({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE }, request.session, request.params.id, 'SubmitProfile', {}),
      ),
  );
};
