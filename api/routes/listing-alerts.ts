import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PageQuery } from '../../domain';
import { Id } from '../../domain/ids';
import { AlertInput, AlertToken, PublicSubscribeInput } from '../../domain/listing-alerts';
import { MINUTE } from '../../domain/time';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { perAddress } from '../services/rate-limits';
import * as alerts from '../services/listing-alerts';

const IdParams = z.object({ id: Id });
const LINK_SPENT = { 410: '`linkExpired`: the link was used, replaced or has expired.' };

/**
 * `/api/ListingAlerts`. A signed-in household's own alerts; a signed-out
 * visitor's subscription with double opt-in; confirm and unsubscribe by the token of a link. A
 * link in a message opens a page of the web app whose button POSTs here: no GET acts, since mail
 * scanners follow every link. `one-click` is RFC 8058's endpoint, named in the List-Unsubscribe
 * header, which a mail client POSTs `List-Unsubscribe=One-Click` to, without signing in.
 */
export const listingAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  const resident = signedIn('resident');

  app.get('/', { preHandler: resident, schema: { querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await alerts.listAlerts(app.db, request.session.userId, request.query)),
  );
  app.post('/', { preHandler: resident, schema: { body: AlertInput }, config: { openapi: { statuses: { 201: 'The alert is saved and active.' }, refusals: { 409: ['actionNotAllowedNow'], 422: ['noContactForChannel'] } } } }, async (request, reply) =>
    reply.ok(await alerts.createAlert(app.db, request.session.userId, request.body), 'Created', 201),
  );
  app.get('/:id', { preHandler: resident, schema: { params: IdParams } }, async (request, reply) => reply.ok(await alerts.getAlert(app.db, request.session.userId, request.params.id)));
  app.put('/:id', { preHandler: resident, schema: { params: IdParams, body: AlertInput }, config: { openapi: { refusals: { 422: ['noContactForChannel'] } } } }, async (request, reply) =>
    reply.ok(await alerts.updateAlert(app.db, request.session.userId, request.params.id, request.body)),
  );
  app.post('/:id/pause', { preHandler: resident, schema: { params: IdParams, body: z.object({ paused: z.boolean() }) }, config: { openapi: { refusals: { 409: ['actionNotAllowedNow'] } } } }, async (request, reply) =>
    reply.ok(await alerts.setAlertPaused(app.db, request.session.userId, request.params.id, request.body.paused)),
  );
  app.delete('/:id', { preHandler: resident, schema: { params: IdParams } }, async (request, reply) => {
    await alerts.deleteAlert(app.db, request.session.userId, request.params.id);
    return reply.ok({ deleted: true });
  });

  app.post(
    '/subscribe',
    { preHandler: perAddress(app, 'alert-subscribe', 20, 10 * MINUTE), schema: { body: PublicSubscribeInput }, config: { openapi: { statuses: { 202: 'The alert waits for its confirmation (a link by e-mail, or YES by text).' }, refusals: { 409: ['actionNotAllowedNow'] } } } },
    async (request, reply) => reply.ok(await alerts.subscribe(app.db, request.body), 'Accepted', 202),
  );
  app.post('/confirm', { preHandler: perAddress(app, 'alert-confirm', 30, MINUTE), schema: { body: AlertToken }, config: { openapi: { statuses: LINK_SPENT } } }, async (request, reply) =>
    reply.ok(await alerts.confirmByToken(app.db, request.body.token)),
  );
  app.post('/unsubscribe', { preHandler: perAddress(app, 'alert-unsubscribe', 30, MINUTE), schema: { body: AlertToken }, config: { openapi: { statuses: LINK_SPENT } } }, async (request, reply) => {
    if (!(await alerts.unsubscribeByToken(app.db, request.body.token))) throw new HttpError(410, 'linkExpired');
    return reply.ok({ unsubscribed: true });
  });

  // RFC 8058: the mail client posts a form; only this route of the plugin reads forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.post(
    '/one-click',
    {
      preHandler: perAddress(app, 'alert-one-click', 60, MINUTE),
      schema: { querystring: AlertToken, body: z.object({ 'List-Unsubscribe': z.literal('One-Click') }) },
    },
    // The same answer whether or not the alert still existed: a mail client retries nothing, and
    // the answer tells a prober nothing.
    async (request, reply) => {
      await alerts.unsubscribeByToken(app.db, request.query.token);
      return reply.ok({ unsubscribed: true });
    },
  );
};
