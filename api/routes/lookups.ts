import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../guards';

/**
 * `GET /api/Lookups` (spec section 3: fetched once and held). Served from the `lookups` table as
 * `{category: [code...]}`; labels are translated by code in the web app (namespace `lookups`).
 * An ETag lets clients revalidate cheaply; the answer is private to signed-in users.
 */
export const lookupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/', { preHandler: signedIn('any') }, async (request, reply) => {
    const rows = await app.db.selectFrom('lookups').select(['category', 'code']).where('active', '=', true).orderBy('category').orderBy('sort_order').execute();
    const data: Record<string, string[]> = {};
    for (const r of rows) (data[r.category] ??= []).push(r.code);
    const etag = `"${createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 27)}"`;
    reply.header('ETag', etag).header('Cache-Control', 'private, max-age=3600');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.ok(data);
  });
};
