import { z } from 'zod';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  DOCUMENT_MESSAGES, DOCUMENT_TYPES, INCOME_TYPES, PageQuery, MAX_FILES_PER_UPLOAD, UNSAFE_TEXT_MESSAGE, findUnsafeText, isSafeText, MAX_FILE_BYTES, ManagerReviewInput, REQUIRED_DOCS_BY_INCOME, ReviewReasonInput, UploadFields,
} from '../../domain';
import { isProfileLocked } from '../../infra/db/repositories/profile-locks';
import { HttpError, conflict, notFound } from '../errors';
import { digestPart, partsRead } from '../plugins/idempotency';
import { signedIn } from '../guards';
import { ensureOwnHousehold } from '../services/household-access';
import { listDocumentPage } from '../services/document-list';
import { documentContent, documentFile, removeDocument, uploadDocuments, type IncomingFile } from '../services/documents';
import { reviewDocuments } from '../../infra/db/repositories/household-documents';
import { refreshCompletion, requiredDocuments } from '../../infra/db/repositories/profile-completion';
import { HouseholdQuery, IdParams, readHousehold } from './household-helpers';

export const DocumentListQuery = HouseholdQuery.extend({
  search: z.string().trim().max(200).optional(),
  documentType: z.enum(DOCUMENT_TYPES).optional(),
  status: z.enum(['Uploaded', 'Pending']).optional(),
  memberId: z.string().uuid('Invalid id').optional(),
  rejected: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});

const DOCUMENT_URL = /\/GetDocument\/([0-9a-f-]{36})$/i;
const PreviewQuery = HouseholdQuery.extend({
  documentId: z.string().uuid('Invalid id').optional(),
  fileUrl: z.string().trim().max(500).optional(),
}).transform((q, ctx) => {
  const documentId = q.documentId ?? DOCUMENT_URL.exec(q.fileUrl ?? '')?.[1];
  if (!documentId) {
    ctx.addIssue({ code: 'custom', path: ['documentId'], message: 'Required' });
    return z.NEVER;
  }
  return { householdId: q.householdId, documentId };
});

/** The multipart limits of every household document upload (section 5: 10 MB a file). */
export const UPLOAD_LIMITS = { fileSize: MAX_FILE_BYTES, files: MAX_FILES_PER_UPLOAD, fields: 20, parts: 30, fieldSize: 4096 };

/** Reads every part: text fields into an object, files into memory (bounded by the multipart limits). */
export async function readMultipart(request: FastifyRequest): Promise<{ fields: Record<string, string>; files: IncomingFile[] }> {
  if (!request.isMultipart()) throw new HttpError(415, 'validation', 'Send the file as multipart/form-data');
  const fields: Record<string, string> = {};
  const files: IncomingFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        // Spec section 5: document file name, file and type id required.
        if (!part.filename?.trim()) throw new HttpError(400, 'validation', DOCUMENT_MESSAGES.fileNameRequired);
        const body = await part.toBuffer();
        digestPart(request, { field: part.fieldname, fileName: part.filename, body });
        files.push({ fileName: part.filename, body });
      }
      else if (typeof part.value === 'string') {
        digestPart(request, { field: part.fieldname, value: part.value });
        fields[part.fieldname] = part.value;
      }
    }
    partsRead(request);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'fileTooLarge');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new HttpError(413, 'tooManyFiles');
    if (error instanceof HttpError) throw error;
    // A truncated or malformed body (busboy: 'Unexpected end of form', 'Malformed part header'...) is the client's.
    throw new HttpError(400, 'validation', 'The upload is not a complete multipart/form-data body');
  }
  // The shared text rule (domain/fields.ts) on what the JSON hook cannot see: form fields and file names.
  if (findUnsafeText(fields) || files.some((f) => !isSafeText(f.fileName))) throw new HttpError(400, 'validation', UNSAFE_TEXT_MESSAGE);
  return { fields, files };
}

/**
 * `/api/Document` (spec section 7). Files are private in the blob store and only served by
 * GetDocument/{id} to the household's members and its organisation's managers. Uploads stay open
 * while the profile is locked (recertification asks for documents after confirming); deletes do not.
 */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS });
  const resident = signedIn('resident');
  const reader = signedIn('resident_or_manager');
  const deps = { db: app.db, blobs: app.blobs };

  const upload = async (request: FastifyRequest) => {
    const household = await ensureOwnHousehold(app.db, request.session);
    const { fields, files } = await readMultipart(request);
    // Spec section 5: the type is required (no default), like the file and its name.
    const parsed = UploadFields.safeParse(fields);
    if (!parsed.success) throw new HttpError(400, 'validation', parsed.error.issues[0]!.message);
    const saved = await uploadDocuments(deps, household.id, request.session.userId, parsed.data, files, request.session.requestKey ?? null);
    await refreshCompletion(app.db, household.id);
    return saved;
  };
  app.post('/UploadDocument', { preHandler: resident }, async (request, reply) => reply.ok(await upload(request), 'Uploaded', 201));
  app.post('/BulkUpload', { preHandler: resident }, async (request, reply) => reply.ok(await upload(request), 'Uploaded', 201));
  app.post('/UploadFilesToBlob', { preHandler: resident }, async (request, reply) => reply.ok(await upload(request), 'Uploaded', 201));

  app.get('/GetDocument/:id', { preHandler: reader, schema: { params: IdParams, querystring: HouseholdQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => documentContent(deps, h, request.params.id))),
  );
  // Spec section 7 names Preview without an id: the document comes as `documentId` or as the
  // `fileUrl` of the section-3 mapping. Preview/{id} stays for older clients.
  app.get('/Preview', { preHandler: reader, schema: { querystring: PreviewQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => documentContent(deps, h, request.query.documentId))),
  );
  app.get('/Preview/:id', { preHandler: reader, schema: { params: IdParams, querystring: HouseholdQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => documentContent(deps, h, request.params.id))),
  );

  // The file itself, as a download (path chosen here): the type checked at upload, never shown inline,
  // and a sandboxing CSP in case a browser renders it anyway (api/plugins/security-headers.ts).
  app.get('/Download/:id', { preHandler: reader, schema: { params: IdParams, querystring: HouseholdQuery } }, async (request, reply) => {
    const file = await readHousehold(app, request, request.query.householdId, (h) => documentFile(deps, h, request.params.id));
    const asciiName = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'document';
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
      .send(file.body);
  });

  const remove = async (request: FastifyRequest, find: (householdId: string) => Promise<string>) => {
    const household = await ensureOwnHousehold(app.db, request.session);
    if (await isProfileLocked(app.db, household.id)) throw conflict('profileLocked');
    await removeDocument(deps, household.id, await find(household.id));
    await refreshCompletion(app.db, household.id);
  };
  app.delete('/DeleteDocument/:id', { preHandler: resident, schema: { params: IdParams } }, async (request, reply) => {
    await remove(request, async () => request.params.id);
    return reply.ok({ id: request.params.id }, 'Document deleted');
  });
  app.delete('/DeleteFileByUrlAsync', { preHandler: resident, schema: { querystring: z.object({ fileUrl: z.string().trim().min(1, 'Required').max(500) }) } }, async (request, reply) => {
    const id = DOCUMENT_URL.exec(request.query.fileUrl)?.[1];
    if (!id) throw notFound();
    await remove(request, async () => id);
    return reply.ok({ id }, 'Document deleted');
  });

  // The household's reason for a flagged document or a discrepancy (section 5: 'Please provide a reason.').
  app.put('/DocumentReviewReason', { preHandler: resident, schema: { body: ReviewReasonInput } }, async (request, reply) => {
    const household = await ensureOwnHousehold(app.db, request.session);
    const row = await app.db
      .updateTable('household_documents')
      .set({ review_reason: request.body.reason, discrepancy_reason: request.body.reason })
      .where('id', '=', request.body.documentId)
      .where('household_id', '=', household.id)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound();
    return reply.ok({ id: row.id, reviewReason: request.body.reason });
  });

  // A manager of the household's organisation rejects a document or flags it for review.
  app.put('/ManagerReview', { preHandler: signedIn('manager'), schema: { body: ManagerReviewInput.and(HouseholdQuery) } }, async (request, reply) => {
    const body = request.body;
    const result = await readHousehold(app, request, body.householdId, async (h) => {
      const [id] = await reviewDocuments(app.db, h, [{ documentId: body.documentId, rejected: body.rejected, needsReview: body.needsReview, reason: body.rejectionReason }]);
      if (!id) throw notFound();
      return { id, rejectedByManager: body.rejected, needsReview: body.needsReview, rejectionReason: body.rejectionReason };
    });
    return reply.ok(result);
  });

  app.get('/GetRequiredDocs', { preHandler: reader, schema: { querystring: HouseholdQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => requiredDocuments(app.db, h))),
  );
  app.get('/GetIncomeTypeDocuments', { preHandler: signedIn('any'), schema: { querystring: z.object({ incomeType: z.enum(INCOME_TYPES, 'Required') }) } }, async (request, reply) =>
    reply.ok(REQUIRED_DOCS_BY_INCOME[request.query.incomeType]),
  );
  // The manager's (and the household's) documents list, a page at a time: `{ items, nextCursor }`.
  app.get('/', { preHandler: reader, schema: { querystring: DocumentListQuery.extend(PageQuery.shape) } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => listDocumentPage(app.db, h, request.query))),
  );
};
