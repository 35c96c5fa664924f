import { z } from 'zod';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddReplyToTicketBody, AssignTicketBody, CreateSupportTicketBody, ResolveTicketBody, SupportTicketListQuery, type SupportTicketView } from '../../domain';
import { announceTicketEvent } from '../../infra/db/repositories/support-ticket-projection';
import { signedIn } from '../guards';
import type { IncomingFile } from '../services/documents';
import { attachmentFile, checkAttachments, listAttachments, saveAttachments } from '../services/support-ticket-attachments';
import { listTickets } from '../services/support-ticket-list';
import { actOnTicket, createTicket, replyToTicket, ticketDetail } from '../services/support-tickets';
import { NoQuery, openEventStream } from './chat-events';
import { UPLOAD_LIMITS, readMultipart } from './documents';
import { idOf } from '../../domain/ids';

const IdParams = z.object({ id: idOf('Invalid ticket id') });
const AttachmentParams = z.object({ id: idOf('Invalid ticket id'), attachmentId: idOf('Invalid attachment id') });

const FILES = Symbol('ticketFiles');
type WithFiles = FastifyRequest & { [FILES]?: IncomingFile[] };

/**
 * CreateSupportTicket and AddReplyToTicket take JSON, or multipart/form-data with the same fields
 * and the attached files. The multipart body is read here, after the guard (onRequest)
 * and before validation, by the reader of household documents (same limits: 10 MB a file, file
 * count, NUL bytes, broken bodies 4xx); its text fields are then validated as the JSON body would be.
 */
async function multipartFields(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const { fields, files } = await readMultipart(request);
  request.body = fields;
  (request as WithFiles)[FILES] = files;
}
const filesOf = (request: FastifyRequest) => (request as WithFiles)[FILES] ?? [];

/**
 * `/api/SupportTicket` (spec section 7 "Support tickets": POST CreateSupportTicket, POST
 * AddReplyToTicket, GET GetSupportTickets, GET GetSupportTicketById/{id}; the prefix is chosen here),
 * and the staff actions assign and resolve, attachment downloads and the live event stream (paths
 * chosen here). Residents, applicants and ambassadors open tickets; who may read or act on one is
 * decided per ticket (its requester, a manager of its organisation, an admin).
 */
export const supportTicketRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS });
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });
  const blobDeps = () => ({ db: app.db, blobs: app.blobs });
  // The projection announced the new message before its files were stored: open pages look again for them.
  const announceFiles = async (view: SupportTicketView, saved: number) => {
    if (saved > 0) await announceTicketEvent(app.db, { ticketId: view.ticketId, requesterUserId: view.requesterUserId, householdId: view.householdId, organizationId: view.organizationId });
  };
  const requesterOrStaff = signedIn('resident_or_ambassador', 'manager', 'admin');
  const staff = signedIn('manager', 'admin');

  app.post('/CreateSupportTicket', { preHandler: signedIn('resident_or_ambassador'), preValidation: multipartFields, schema: { body: CreateSupportTicketBody } }, async (request, reply) => {
    // Every file is checked before the ticket exists: a refused file saves nothing.
    const files = await checkAttachments(filesOf(request));
    const view = await createTicket(deps(), request.session, request.body);
    const attachments = await saveAttachments(blobDeps(), view.ticketId, 1, request.session.userId, files);
    await announceFiles(view, attachments.length);
    return reply.ok({ ...view, attachments }, 'Support ticket created', 201);
  });

  app.post('/AddReplyToTicket', { preHandler: requesterOrStaff, preValidation: multipartFields, schema: { body: AddReplyToTicketBody } }, async (request, reply) => {
    const files = await checkAttachments(filesOf(request));
    const view = await replyToTicket(deps(), request.session, request.body.ticketId, request.body.message);
    const seq = view.messages.at(-1)?.seq ?? 1;
    const attachments = await saveAttachments(blobDeps(), view.ticketId, seq, request.session.userId, files);
    await announceFiles(view, attachments.length);
    return reply.ok({ ...view, attachments }, 'Reply added');
  });

  app.get('/GetSupportTickets', { preHandler: requesterOrStaff, schema: { querystring: SupportTicketListQuery } }, async (request, reply) =>
    reply.ok(await listTickets(app.db, request.session, request.query)),
  );

  app.get('/GetSupportTicketById/:id', { preHandler: requesterOrStaff, schema: { params: IdParams } }, async (request, reply) => {
    const detail = await ticketDetail(deps(), request.session, request.params.id);
    return reply.ok({ ...detail, attachments: await listAttachments(app.db, request.params.id) });
  });

  // An attachment as a download: the type checked at upload, never inline, under the sandboxing CSP
  // of downloads (api/plugins/security-headers.ts), like GET /api/Document/Download/{id}.
  app.get('/:id/attachments/:attachmentId', { preHandler: requesterOrStaff, schema: { params: AttachmentParams } }, async (request, reply) => {
    const file = await attachmentFile(blobDeps(), request.session, request.params.id, request.params.attachmentId);
    const asciiName = file.fileName.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'attachment';
    return reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
      .send(file.body);
  });

  app.post('/:id/assign', { preHandler: staff, schema: { params: IdParams, body: AssignTicketBody } }, async (request, reply) =>
    reply.ok(await actOnTicket(deps(), request.session, request.params.id, 'Assign', request.body), 'Ticket assigned'),
  );

  app.post('/:id/resolve', { preHandler: staff, schema: { params: IdParams, body: ResolveTicketBody } }, async (request, reply) =>
    reply.ok(await actOnTicket(deps(), request.session, request.params.id, 'Resolve', request.body), 'Ticket resolved'),
  );

  // Live ticket pages: server-sent events naming a ticket that changed (`event: ticket`,
  // `data: {"ticketId"}`), for its requester (and household), its organisation's managers and
  // admins. Read with fetch streaming and the bearer header, like GET /api/Chat/events.
  app.get('/events', { preHandler: requesterOrStaff, schema: { querystring: NoQuery } }, async (request, reply) => {
    const { userId, role } = request.session;
    const me = await app.db
      .selectFrom('users as u')
      .leftJoin('households as h', 'h.head_user_id', 'u.id')
      .select(['u.organization_id', 'h.id as household_id'])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    const scope = {
      userId,
      householdId: role === 'User' || role === 'Tenant' ? (me?.household_id ?? null) : null,
      organizationId: role === 'Manager' ? (me?.organization_id ?? null) : null,
      admin: role === 'Admin',
    };
    await openEventStream(app, request, reply, (write, end) =>
      app.chatEvents.subscribeTickets({ ...scope, send: (event) => (event === 'resync' ? write('resync', {}) : write('ticket', event)), end }),
    );
  });
};

