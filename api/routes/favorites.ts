import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FavoriteBody } from '../../domain';
import { forbidden, notFound } from '../errors';
import { signedIn } from '../guards';
import { listFavorites, setFavorite } from '../services/opportunities';
import { Id } from '../../domain/ids';

/** `/api/FavoriteOpportunity` (spec section 7): add or update, `/my-favorites`, `/{userId}`. */
export const favoriteRoutes: FastifyPluginAsyncZod = async (app) => {
  const addOrUpdate = async (userId: string, body: FavoriteBody) => {
    if (!(await setFavorite(app.db, userId, body.opportunityId, body.isFavorite))) throw notFound();
    return { opportunityId: body.opportunityId, isFavorite: body.isFavorite };
  };
  app.post('/', { preHandler: signedIn('resident'), schema: { body: FavoriteBody } }, async (request, reply) =>
    reply.ok(await addOrUpdate(request.session.userId, request.body)),
  );
  app.put('/', { preHandler: signedIn('resident'), schema: { body: FavoriteBody } }, async (request, reply) =>
    reply.ok(await addOrUpdate(request.session.userId, request.body)),
  );

  app.get('/my-favorites', { preHandler: signedIn('resident') }, async (request, reply) => reply.ok(await listFavorites(app.db, request.session.userId)));

  // A user's favourites by id: only their own.
  app.get('/:userId', { preHandler: signedIn('resident'), schema: { params: z.object({ userId: Id }) } }, async (request, reply) => {
    if (request.params.userId !== request.session.userId) throw forbidden();
    return reply.ok(await listFavorites(app.db, request.session.userId));
  });
};
