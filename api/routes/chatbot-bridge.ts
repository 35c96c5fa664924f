import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_TICKET_MESSAGE_LENGTH, UploadFields } from '../../domain';
import { refreshCompletion } from '../../infra/db/repositories/profile-completion';
import { HttpError, forbidden } from '../errors';
import { signedIn } from '../guards';
import { sendMessage, sideOnConversation } from '../services/chat';
import { uploadDocuments } from '../services/documents';
import { ensureOwnHousehold } from '../services/household-access';
import { UPLOAD_LIMITS, readMultipart } from './documents';

const OrganizationField = z.string({ error: 'Invalid organization id' }).uuid('Invalid organization id');

/**
 * `/api/ChatbotBridge` (spec section 7): a document sent in a conversation with the managing office.
 * It goes through the household upload of My Documents (same multipart limits, content sniffing,
 * file-count rules and private blob storage), then the conversation gets a message saying so.
 */
export const chatbotBridgeRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS });

  app.post('/upload-document', { preHandler: signedIn('resident') }, async (request, reply) => {
    const household = await ensureOwnHousehold(app.db, request.session);
    const { fields, files } = await readMultipart(request);
    const { organizationId: rawOrganization, ...uploadFields } = fields;
    const organization = OrganizationField.safeParse(rawOrganization);
    if (!organization.success) throw new HttpError(400, 'validation', organization.error.issues[0]!.message);
    // Only the household's own side of a conversation with an organisation it is linked with.
    if (await sideOnConversation(app.db, request.session, household.id, organization.data) !== 'household') throw forbidden();
    const parsed = UploadFields.safeParse(uploadFields);
    if (!parsed.success) throw new HttpError(400, 'validation', parsed.error.issues[0]!.message);
    const documents = await uploadDocuments({ db: app.db, blobs: app.blobs }, household.id, request.session.userId, parsed.data, files);
    await refreshCompletion(app.db, household.id);
    // Only the names are stored: each reader sees "Shared a document: ..." in their own language.
    const names = documents.map((d) => d.fileName).join(', ');
    const message = await sendMessage(
      app.db,
      request.session,
      { householdId: household.id, organizationId: organization.data, message: names.slice(0, MAX_TICKET_MESSAGE_LENGTH) },
      { kind: 'documents_shared', documentId: documents[0]?.id ?? null },
    );
    return reply.ok({ documents, message }, 'Uploaded', 201);
  });
};
