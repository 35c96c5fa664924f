import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IntakeTurnBody } from '../../domain/intake';
import { chatModelReader } from '../../infra/translate/chat-model';
import { HttpError } from '../errors';
import type { Session } from '../session';
import { signedIn } from '../guards';
import { perUser } from '../services/rate-limits';
import { IntakeConversation } from '../services/intake';
import { UPLOAD_LIMITS, readMultipart } from './documents';

/**
 * `/api/intake` (spec section 7, the intake bot): residents walk through their
 * household profile one question at a time. GET resumes where the conversation is; POST takes one
 * turn (an answer, a confirmation, a question for the FAQ, pause, restart); POST /document takes the
 * document asked for. Deterministic; an optional OpenAI-compatible model (INTAKE_MODEL_URL) only
 * reads free answers into the form's values, which are still checked and confirmed.
 */
export const intakeRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS });
  const resident = signedIn('resident');
  const limit = perUser(app, 'intake', 240, 60_000);
  const config = app.config;
  const reader = config.INTAKE_MODEL_URL
    ? chatModelReader({ url: config.INTAKE_MODEL_URL, model: config.INTAKE_MODEL, apiKey: config.INTAKE_MODEL_API_KEY, timeoutMs: config.INTAKE_MODEL_TIMEOUT_MS })
    : null;
  const conversation = (request: { session: Session }) =>
    new IntakeConversation({ db: app.db, blobs: app.blobs, keys: app.keys, reader }, request.session);

  app.get('/', { preHandler: [resident, limit] }, async (request, reply) => reply.ok(await conversation(request).current()));
  app.post('/', { preHandler: [resident, limit], schema: { body: IntakeTurnBody } }, async (request, reply) => reply.ok(await conversation(request).turn(request.body)));
  app.post('/document', { preHandler: [resident, limit] }, async (request, reply) => {
    const { fields, files } = await readMultipart(request);
    const payDates = (fields.payDates ?? '').split(',').map((d) => d.trim()).filter(Boolean);
    if (payDates.length > 20) throw new HttpError(400, 'validation', 'Too many pay dates');
    return reply.ok(await conversation(request).upload(files, payDates), 'Uploaded', 201);
  });
};
