import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SmsDeliveryStatus } from '../../domain';
import { isValidTwilioSignature } from '../../infra/notifications/twilio';
import { HttpError } from '../errors';
import { recordDeliveryStatus, smsReply, answerInboundText } from '../services/sms';

const StatusCallbackBody = z.object({
  MessageSid: z.string().min(1).max(64),
  MessageStatus: SmsDeliveryStatus,
  ErrorCode: z.string().max(16).optional(),
}).passthrough();

const InboundBody = z.object({
  From: z.string().min(1).max(40),
  To: z.string().max(40).optional(),
  Body: z.string().max(1600).default(''),
  MessageSid: z.string().min(1).max(64),
}).passthrough();

/**
 * The SMS provider's webhooks (Twilio's format): delivery states of the texts the portal sent, and
 * texts people send back (STOP, START, HELP). Both are public routes: the provider's
 * `X-Twilio-Signature` over the full URL and the form is the permission, and a request without a
 * valid one is refused (403). Without a provider (SMS_PROVIDER=file) they do not exist (404).
 */
export const smsWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  // The provider posts forms; only these routes read them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const verify = async (request: FastifyRequest) => {
    const token = app.config.SMS_PROVIDER === 'twilio' ? app.config.TWILIO_AUTH_TOKEN : undefined;
    if (!token) throw new HttpError(404, 'notFound');
    // The URL the provider called and signed: the public address, not the one behind the proxy.
    const url = `${app.config.PUBLIC_BASE_URL.replace(/\/$/, '')}${request.url}`;
    const params = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, string>;
    const signature = request.headers['x-twilio-signature'];
    if (!isValidTwilioSignature(token, url, params, typeof signature === 'string' ? signature : undefined)) throw new HttpError(403, 'forbidden');
  };

  app.post('/status', { preValidation: verify, schema: { body: StatusCallbackBody } }, async (request, reply) => {
    const { MessageSid, MessageStatus, ErrorCode } = request.body;
    const known = await recordDeliveryStatus(app.db, MessageSid, MessageStatus, ErrorCode ?? null);
    if (!known) request.log.info({ status: MessageStatus }, 'delivery state of an unknown text message');
    return reply.ok({ recorded: known });
  });

  app.post('/inbound', { preValidation: verify, schema: { body: InboundBody } }, async (request, reply) => {
    const answer = await answerInboundText(app.db, request.body.From, request.body.Body);
    request.log.info({ keyword: answer.keyword }, 'text message received');
    return reply.code(200).type('text/xml; charset=utf-8').send(smsReply(answer.text));
  });
};
