import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError, notFound } from '../errors';
import { signedIn } from '../guards';
import { DOCUMENT_LINK_TTL_SECONDS, signDocumentLink, verifyDocumentLink } from '../services/document-links';
import { readHousehold } from './household-helpers';
import { DocumentLinkToken, idOf } from '../../domain/ids';

const uuid = idOf('Invalid id');

/**
 * `/api/Document/generatepublicurlfromblobstorage/{a}/{b}` (spec section 7): {a} is the household,
 * {b} the document. Only the household (owner) or a manager of its organisation (staff) gets a link,
 * and the link opens that one file for DOCUMENT_LINK_TTL_SECONDS without a bearer token (a new tab,
 * an image tag); the blob store itself stays private.
 */
export const documentLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = app.config.DATA_ENCRYPTION_KEY;

  app.get(
    '/generatepublicurlfromblobstorage/:a/:b',
    { preHandler: signedIn('resident_or_manager'), schema: { params: z.object({ a: uuid, b: uuid }) } },
    async (request, reply) => {
      const { a: householdId, b: documentId } = request.params;
      const link = await readHousehold(app, request, householdId, async (h) => {
        const row = await app.db.selectFrom('household_documents').select('id').where('id', '=', documentId).where('household_id', '=', h).where('blob_key', 'is not', null).executeTakeFirst();
        if (!row) throw notFound();
        const expiresAt = Math.floor(Date.now() / 1000) + DOCUMENT_LINK_TTL_SECONDS;
        return { url: `/api/Document/shared/${signDocumentLink(key, { householdId: h, documentId, expiresAt })}`, expiresAt: new Date(expiresAt * 1000).toISOString() };
      });
      return reply.ok(link);
    },
  );

  // The signed link itself: no session, the signature is the permission.
  app.get('/shared/:token', { schema: { params: z.object({ token: DocumentLinkToken }) } }, async (request, reply) => {
    const claims = verifyDocumentLink(key, request.params.token, Math.floor(Date.now() / 1000));
    if (!claims) throw new HttpError(404, 'linkExpired');
    const row = await app.db
      .selectFrom('household_documents')
      .select(['blob_key', 'content_type'])
      .where('id', '=', claims.documentId)
      .where('household_id', '=', claims.householdId)
      .executeTakeFirst();
    const object = row?.blob_key ? await app.blobs.get(row.blob_key) : null;
    if (!object) throw new HttpError(404, 'linkExpired');
    return reply
      .header('content-type', object.contentType)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', 'inline')
      .header('x-content-type-options', 'nosniff')
      .send(object.body);
  });
};
