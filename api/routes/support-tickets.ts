import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddReplyToTicketBody, AssignTicketBody, CreateSupportTicketBody, ResolveTicketBody, SupportTicketListQuery } from '../../domain';
import { signedIn } from '../guards';
import { listTickets } from '../services/support-ticket-list';
import { actOnTicket, createTicket, replyToTicket, ticketDetail } from '../services/support-tickets';

const IdParams = z.object({ id: z.string().uuid('Invalid ticket id') });

/**
 * `/api/SupportTicket` (spec section 7 "Support tickets": POST CreateSupportTicket, POST
 * AddReplyToTicket, GET GetSupportTickets, GET GetSupportTicketById/{id}; the prefix is chosen here),
 * and the staff actions assign and resolve (paths chosen here). Residents, applicants and
 * ambassadors open tickets; who may read or act on one is decided per ticket (its requester, a
 * manager of its organisation, an admin).
 */
export const supportTicketRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE });
  const requesterOrStaff = signedIn('resident_or_ambassador', 'manager', 'admin');
  const staff = signedIn('manager', 'admin');

  app.post('/CreateSupportTicket', { preHandler: signedIn('resident_or_ambassador'), schema: { body: CreateSupportTicketBody } }, async (request, reply) =>
    reply.ok(await createTicket(deps(), request.session, request.body), 'Support ticket created', 201),
  );

  app.post('/AddReplyToTicket', { preHandler: requesterOrStaff, schema: { body: AddReplyToTicketBody } }, async (request, reply) =>
    reply.ok(await replyToTicket(deps(), request.session, request.body.ticketId, request.body.message), 'Reply added'),
  );

  app.get('/GetSupportTickets', { preHandler: requesterOrStaff, schema: { querystring: SupportTicketListQuery } }, async (request, reply) =>
    reply.ok(await listTickets(app.db, request.session, request.query)),
  );

  app.get('/GetSupportTicketById/:id', { preHandler: requesterOrStaff, schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await ticketDetail(deps(), request.session, request.params.id)),
  );

  app.post('/:id/assign', { preHandler: staff, schema: { params: IdParams, body: AssignTicketBody } }, async (request, reply) =>
    reply.ok(await actOnTicket(deps(), request.session, request.params.id, 'Assign', request.body), 'Ticket assigned'),
  );

  app.post('/:id/resolve', { preHandler: staff, schema: { params: IdParams, body: ResolveTicketBody } }, async (request, reply) =>
    reply.ok(await actOnTicket(deps(), request.session, request.params.id, 'Resolve', request.body), 'Ticket resolved'),
  );
};
