import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { portalPath } from '../../domain';
import { HttpError, notFound } from '../errors';
import { perAddress } from '../services/rate-limits';

const RedirectBody = z.object({
  notificationId: z.string().uuid('Invalid id'),
  destination: z.string().trim().min(1, 'Required').max(2000),
});

/**
 * `POST /api/redirect/redirectToDestination` (spec section 7, the notification redirect log). Links
 * in emails and texts open the portal at `/?redirect=<path>&notification=<id>`; the web app posts
 * both here at start. The click is recorded (the path only: a query may hold a link token) and the
 * answer names where to go, which is only ever a page of this portal: no open redirect.
 * No session needed: the person clicking is often signed out.
 */
export const redirectRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/redirectToDestination', { schema: { body: RedirectBody }, preHandler: perAddress(app, 'redirect', 60, 60_000) }, async (request, reply) => {
    const destination = portalPath(request.body.destination);
    if (!destination) throw new HttpError(400, 'validation', 'Only pages of this portal can be opened from a notification');
    const notification = await app.db.selectFrom('notification_outbox').select('id').where('id', '=', request.body.notificationId).executeTakeFirst();
    if (!notification) throw notFound();
    await app.db.insertInto('notification_clicks').values({ notification_id: notification.id, destination_path: destination.split(/[?#]/)[0]! }).execute();
    return reply.ok({ destination }, 'Redirecting');
  });
};
