import fp from 'fastify-plugin';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { FACTS_KEY, finishDocument, type OpenApiDocument } from '../openapi/document';
import { declaredAnswers, summaryOf, tagOf, type RouteFacts } from '../openapi/operations';
import { RATE_LIMITED } from '../services/rate-limits';
import { APP_CSP } from './security-headers';

/** Where the document is served: as JSON, and as a page to browse (Swagger UI, served from this app). */
export const OPENAPI_JSON_URL = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api-docs';

/** The page has no "explore another URL" bar (one document only); its version and link texts readable (axe). */
const DOCS_CSS = `.swagger-ui .topbar { display: none; }
.swagger-ui .info .title small.version-stamp, .swagger-ui .info .title small.version-stamp pre { background-color: #2f5d0a; color: #fff; }
.swagger-ui .info .title small:not(.version-stamp) { background-color: #4a5560; }
.swagger-ui .info .title small pre { color: #fff; }
.swagger-ui .info a.link, .swagger-ui .info .url, .swagger-ui .info .url a { color: #1f4e8c; }
.swagger-ui .btn.authorize, .swagger-ui .btn.authorize span { color: #1b5e20; border-color: #1b5e20; }
.swagger-ui .btn.authorize svg { fill: #1b5e20; }`;

const DOCS_CSP = Object.entries({ ...APP_CSP, scriptSrc: ["'self'", "'unsafe-eval'"] })
  .filter(([, value]) => value !== null)
  .map(([name, value]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${(value as string[]).join(' ')}`)
  .join('; ');

/**
 * The OpenAPI 3.1 document of every /api route, generated when first asked for from the
 * routes as registered: their zod schemas (the same ones that validate), their guards (the roles),
 * their methods (aliases kept for the web app are deprecated). Registered before the route plugins
 * so it sees every route, those added later included, without an edit here.
 */
export const openapiPlugin = fp(
  async (app) => {
    // Schemas zod cannot express in JSON Schema (a transform's output) are documented as "any value".
    const zodToJsonConfig = { unrepresentable: 'any' } as const;
    const zodTransform = createJsonSchemaTransform({ skipList: [], zodToJsonConfig });
    const zodTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig });

    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Affordable-housing portal API', version: '1' },
      },
      transform: (document) => {
        const { schema, route } = document;
        // A prefix's own route is served with and without the trailing slash: documented without.
        const url = document.url.length > 1 ? document.url.replace(/\/$/, '') : document.url;
        // Only the API is described (not the web app's files, health checks or the codec).
        if (!url.startsWith('/api/')) return { schema: { hide: true }, url };
        const converted = zodTransform({ ...document, schema: schema ?? {} }) as unknown as { schema: Record<string, unknown> };
        const methods = [route.method].flat().filter((m) => m !== 'HEAD');
        const query = converted.schema.querystring as { properties?: Record<string, unknown> } | undefined;
        const preHandlers = [route.preHandler].flat().filter(Boolean) as { [RATE_LIMITED]?: true }[];
        const facts: RouteFacts = {
          url,
          methods,
          roles: app.routeGuards.get(`${methods[0]} ${url}`) ?? null,
          hasInput: Boolean(schema?.body ?? schema?.querystring ?? schema?.params),
          hasPathParams: url.includes(':'),
          paged: Boolean(query?.properties?.cursor),
          rateLimited: preHandlers.some((h) => h[RATE_LIMITED]),
          refersById: JSON.stringify([converted.schema.querystring, converted.schema.body]).includes('"format":"uuid"'),
          raw: url === OPENAPI_JSON_URL,
          declared: declaredAnswers(methods[0]!, url, route.config?.openapi),
        };
        const summary = typeof converted.schema.summary === 'string' ? converted.schema.summary : url === OPENAPI_JSON_URL ? 'This OpenAPI document' : summaryOf(methods[0]!, url);
        return { schema: { ...converted.schema, tags: [tagOf(url)], summary, [FACTS_KEY]: facts }, url };
      },
      transformObject: (input) => finishDocument(zodTransformObject(input as never) as unknown as OpenApiDocument) as never,
    });
    // Groups start folded: 200-odd operations open at once take the page tens of seconds to draw.
    const uiConfig = { docExpansion: 'none', defaultModelsExpandDepth: -1, syntaxHighlight: false } as const;
    await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, uiConfig, staticCSP: false, theme: { css: [{ filename: 'portal.css', content: DOCS_CSS }] } });
    // Swagger UI's bundle compiles code at run time: its pages alone may evaluate their own scripts.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.url.startsWith(API_DOCS_PREFIX)) reply.header('content-security-policy', DOCS_CSP);
      return payload;
    });

    app.get(OPENAPI_JSON_URL, async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()));
  },
  { name: 'openapi', dependencies: ['auth'] },
);
