import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PageQuery, PinChatMessageBody, SendChatMessageBody } from '../../domain';
import { parseBody } from '../errors';
import { signedIn } from '../guards';
import * as chat from '../services/chat';
import { idOf } from '../../domain/ids';

const Conversation = z.object({ a: idOf('Invalid household id'), b: idOf('Invalid organization id') });
const MessageId = z.object({ id: idOf('Invalid message id') });

/**
 * `/api/Chat` (spec section 7): SendMessage, GetPreviousMessages/{a}/{b} (a household, b
 * organisation), SetMessageAsPinned/{id}, DeleteMessage/{id}, UpdateMessageSeenStatus/{a}/{b}/{c}
 * (c the last message read), active-chats (managers); and unseen-count for the header (path chosen here).
 */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const parties = signedIn('resident', 'manager');

  app.post('/SendMessage', { preHandler: parties, schema: { body: SendChatMessageBody } }, async (request, reply) =>
    reply.ok(await chat.sendMessage(app.db, request.session, request.body), 'Message sent', 201),
  );

  app.get('/GetPreviousMessages/:a/:b', { preHandler: parties, schema: { params: Conversation, querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await chat.history(app.db, request.session, request.params.a, request.params.b, request.query)),
  );

  // The body is optional (no body toggles the pin), so it is read here rather than by the route schema.
  app.post('/SetMessageAsPinned/:id', { preHandler: parties, schema: { params: MessageId } }, async (request, reply) =>
    reply.ok(await chat.pinMessage(app.db, request.session, request.params.id, parseBody(PinChatMessageBody, request.body).pinned)),
  );

  app.delete('/DeleteMessage/:id', { preHandler: parties, schema: { params: MessageId } }, async (request, reply) =>
    reply.ok(await chat.deleteMessage(app.db, request.session, request.params.id), 'Message deleted'),
  );

  app.post('/UpdateMessageSeenStatus/:a/:b/:c', { preHandler: parties, schema: { params: Conversation.extend({ c: idOf('Invalid message id') }) } }, async (request, reply) =>
    reply.ok(await chat.updateSeen(app.db, request.session, request.params.a, request.params.b, request.params.c)),
  );

  app.get('/active-chats', { preHandler: signedIn('manager'), schema: { querystring: PageQuery } }, async (request, reply) =>
    reply.ok(await chat.activeChats(app.db, request.session, request.query)),
  );

  app.get('/unseen-count', { preHandler: signedIn('any') }, async (request, reply) => reply.ok(await chat.unseen(app.db, request.session)));
};
