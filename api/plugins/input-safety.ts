import fp from 'fastify-plugin';
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from '../../domain';
import { HttpError } from '../errors';

/**
 * Input every route gets before its own validation:
 * - the shared text rule of domain/fields.ts on every string of the path parameters, the query and
 *   a JSON body (NUL characters and lone surrogates answer 400, never reach PostgreSQL);
 * - an empty body sent as JSON reads as no body (e.g. `POST /logout` with a content type and nothing
 *   else), and the route's schema decides whether a body was required.
 * Multipart fields and file names get the same rule where they are read (api/routes/documents.ts).
 */
export const inputSafetyPlugin = fp(
  async (app) => {
    // Fastify's own parser for everything but an empty body. Its prototype-poisoning protection drops
    // a `__proto__` key (a JSON object may name any key, so refusing one would refuse valid JSON).
    const parseJson = app.getDefaultJsonParser('remove', 'ignore');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (String(body).trim() === '') return done(null, undefined);
      void parseJson(request, String(body), done);
    });

    app.addHook('preValidation', async (request) => {
      for (const [part, value] of [['params', request.params], ['querystring', request.query], ['body', request.body]] as const) {
        const path = findUnsafeText(value);
        if (path) {
          const where = [part, ...path].join('.');
          throw Object.assign(new HttpError(400, 'validation', UNSAFE_TEXT_MESSAGE), { issues: [{ path: where, message: UNSAFE_TEXT_MESSAGE }] });
        }
      }
    });
  },
  { name: 'input-safety' },
);
