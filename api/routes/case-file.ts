import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CaseFileDocumentParams, CaseFileParams, DocumentDecisionInput } from '../../domain';
import { signedIn } from '../guards';
import { documentFile } from '../services/documents';
import { managerCase, readCaseFile, reviewCaseDocument } from '../services/case-file';

/**
 * `/api/CaseFile` (paths chosen here): the manager's case file of a lease-up application,
 * a recertification or a relocation, each document's file for the in-page preview, and its review.
 * Managers of the case's organisation only.
 */
export const caseFileRoutes: FastifyPluginAsyncZod = async (app) => {
  const manager = signedIn('manager');

  app.get('/:kind/:caseId', { preHandler: manager, schema: { params: CaseFileParams } }, async (request, reply) =>
    reply.ok(await readCaseFile(app.db, request.session, request.params.kind, request.params.caseId)),
  );

  // The decrypted file, inline so the page can show it (a PDF in a frame, an image); the type is
  // the one checked by content at upload, and the API's file CSP sandboxes it if opened on its own.
  app.get('/:kind/:caseId/documents/:id/file', { preHandler: manager, schema: { params: CaseFileDocumentParams } }, async (request, reply) => {
    const { householdId } = await managerCase(app.db, request.session, request.params.kind, request.params.caseId);
    const file = await documentFile({ db: app.db, blobs: app.blobs }, householdId, request.params.id);
    return reply.type(file.contentType).header('content-disposition', 'inline').send(file.body);
  });

  app.post('/:kind/:caseId/documents/:id/review', { preHandler: manager, schema: { params: CaseFileDocumentParams, body: DocumentDecisionInput } }, async (request, reply) =>
    reply.ok(await reviewCaseDocument(app.db, request.session, request.params.kind, request.params.caseId, request.params.id, request.body)),
  );
};
