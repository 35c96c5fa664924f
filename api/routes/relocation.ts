import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BookSlotBody, ExtendBody, OfferTemporaryUnitBody, StartRelocationBody } from '../../domain';
import { signedIn } from '../guards';
import * as relocation from '../services/relocation';
import { OfferId, idOf, relocationOfOffer } from '../../domain/ids';

const IdParams = z.object({ id: idOf('Invalid relocation id') });

/**
 * `/api/Relocation` (spec section 7): GET root, submit-profile/{id}, {a}/unit-offers/{b}/accept,
 * unit-offers/{id}/decline, slots/{id}, book-slot; manager routes under /manager (not in the spec).
 */
export const relocationRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });

  app.get('/', { preHandler: signedIn('resident_or_manager') }, async (request, reply) => reply.ok(await relocation.root(deps(), request.session)));

  app.get('/case/:id', { preHandler: signedIn('resident_or_manager'), schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await relocation.detail(deps(), request.session, request.params.id)),
  );

  app.post('/submit-profile/:id', { preHandler: signedIn('resident'), schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await relocation.act(deps(), request.session, request.params.id, 'SubmitProfile', {})),
  );

  app.post(
    '/:id/unit-offers/:offerId/accept',
    { preHandler: signedIn('resident'), schema: { params: IdParams.extend({ offerId: OfferId }) } },
    async (request, reply) => reply.ok(await relocation.act(deps(), request.session, request.params.id, 'AcceptOffer', { offerId: request.params.offerId })),
  );

  app.post('/unit-offers/:offerId/decline', { preHandler: signedIn('resident'), schema: { params: z.object({ offerId: OfferId }) } }, async (request, reply) => {
    const id = relocationOfOffer(request.params.offerId);
    return reply.ok(await relocation.act(deps(), request.session, id, 'DeclineOffer', { offerId: request.params.offerId }));
  });

  /** Moving slots of a relocation (offered once a temporary unit is accepted). */
  app.get('/slots/:id', { preHandler: signedIn('resident_or_manager'), schema: { params: IdParams } }, async (request, reply) => {
    const view = await relocation.detail(deps(), request.session, request.params.id);
    const now = new Date().toISOString();
    return reply.ok({ slots: view.slots.filter((s) => s.startsAt > now), bookedSlot: view.bookedSlot });
  });

  app.post('/book-slot', { preHandler: signedIn('resident'), schema: { body: BookSlotBody } }, async (request, reply) =>
    reply.ok(await relocation.act(deps(), request.session, request.body.relocationId, 'BookSlot', { slotId: request.body.slotId })),
  );

  /** Tenant households of the manager's organisation, to pick one when starting a relocation. */
  app.get('/manager/households', { preHandler: signedIn('manager') }, async (request, reply) => reply.ok(await relocation.tenantHouseholds(deps(), request.session)));

  app.post('/manager/start', { preHandler: signedIn('manager'), schema: { body: StartRelocationBody } }, async (request, reply) =>
    reply.ok(await relocation.startRelocation(deps(), request.session, request.body.householdId, request.body.reason), 'Relocation started', 201),
  );

  app.post('/manager/:id/offer-unit', { preHandler: signedIn('manager'), schema: { params: IdParams, body: OfferTemporaryUnitBody } }, async (request, reply) => {
    const { expiresAt, ...unit } = request.body;
    return reply.ok(await relocation.act(deps(), request.session, request.params.id, 'OfferTemporaryUnit', { unit, ...(expiresAt ? { expiresAt } : {}) }));
  });

  app.post('/manager/:id/confirm-move', { preHandler: signedIn('manager'), schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await relocation.act(deps(), request.session, request.params.id, 'ConfirmMove', {})),
  );

  app.post('/manager/:id/extend', { preHandler: signedIn('manager'), schema: { params: IdParams, body: ExtendBody } }, async (request, reply) =>
    reply.ok(await relocation.act(deps(), request.session, request.params.id, 'ExtendRelocation', request.body)),
  );

  app.post('/manager/:id/confirm-return', { preHandler: signedIn('manager'), schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await relocation.act(deps(), request.session, request.params.id, 'ConfirmReturn', {})),
  );
};
