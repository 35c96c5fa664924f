import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../domain';
import { TranslateBatchBody, TranslateBody, type TranslationResult, type TranslatorStatus } from '../../domain/translator';
import { libreTranslate, TranslationServerError, type MachineTranslator } from '../../infra/translate/libretranslate';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { perUser } from '../services/rate-limits';
import { translateTexts } from '../services/translator';

/**
 * `POST /api/Translator` and `/api/Translator/batch` (spec section 7): any
 * signed-in user reads free text in their language. With no server configured (TRANSLATE_URL) both
 * answer 503 with `translatorNotConfigured`; a server that fails or is too slow gives 200 with the
 * original texts, `translated: false` and `translationUnavailable`. `GET /status` tells the web
 * whether to show translate buttons.
 */
export const translatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = app.config;
  const logged: MachineTranslator | null = config.TRANSLATE_URL
    ? (() => {
        const server = libreTranslate({ url: config.TRANSLATE_URL, apiKey: config.TRANSLATE_API_KEY, timeoutMs: config.TRANSLATE_TIMEOUT_MS });
        return {
          async translate(texts, source, target) {
            try {
              return await server.translate(texts, source, target);
            } catch (error) {
              // Never the texts: only what went wrong.
              if (error instanceof TranslationServerError) app.log.warn({ kind: error.kind, texts: texts.length }, `translation server: ${error.message}`);
              throw error;
            }
          },
        };
      })()
    : null;
  const guard = [signedIn('any'), perUser(app, 'translate', config.TRANSLATE_RATE_PER_MINUTE, 60_000)];

  const send = (result: TranslationResult) => (result.code ? MESSAGES.translationUnavailable : 'OK');
  const serverOrRefuse = () => {
    if (!logged) throw new HttpError(503, 'translatorNotConfigured');
    return logged;
  };

  app.get('/status', { preHandler: signedIn('any') }, async (_request, reply) => reply.ok<TranslatorStatus>({ available: logged !== null }));

  app.post('/', { preHandler: guard, schema: { body: TranslateBody } }, async (request, reply) => {
    const server = serverOrRefuse();
    const { text, source, target } = request.body;
    const result = await translateTexts({ db: app.db, server }, [text], source, target);
    return reply.ok({ ...result.translations[0]!, ...(result.code ? { code: result.code } : {}) }, send(result));
  });

  app.post('/batch', { preHandler: guard, schema: { body: TranslateBatchBody } }, async (request, reply) => {
    const server = serverOrRefuse();
    const { texts, source, target } = request.body;
    const result = await translateTexts({ db: app.db, server }, texts, source, target);
    return reply.ok(result, send(result));
  });
};
