import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * Security headers on every answer, as helmet writes them:
 * - a strict Content-Security-Policy for the app: scripts only from this origin (no inline script:
 *   tokens live in local storage, spec section 3), no framing by anyone (`frame-ancestors 'none'`,
 *   X-Frame-Options DENY), forms and base URLs only to this origin. Inline styles stay allowed (toasts
 *   insert a style element); object/frame sources allow this origin's blob: URLs, which is how
 *   documents and letters are opened;
 * - nosniff, Referrer-Policy no-referrer (reset links carry their token in the address), HSTS.
 * Then per answer: API answers are never cached (`Cache-Control: no-store`, personal data and
 * tokens) unless the route set its own (public lookups); an API answer that is a file is an
 * attachment with a sandboxing CSP, so a browser never runs it as a page of this origin.
 */
export const APP_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'self'", 'blob:'],
  frameSrc: ["'self'", 'blob:'],
  workerSrc: ["'self'", 'blob:'],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
  baseUri: ["'self'"],
  // http://localhost must keep loading its own files: no upgrade to https here (HSTS does it behind TLS).
  upgradeInsecureRequests: null,
};

export const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

const isApi = (url: string) => url.startsWith('/api/') || url.startsWith('/codec/');

/**
 * The headers helmet sets for this configuration, worked out once: they are the same on every
 * answer, and having helmet build its middleware per request (as @fastify/helmet does) parsed the
 * whole policy again each time, a tenth of the API's time on a short request.
 */
export function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: APP_CSP },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export const securityHeadersPlugin = fp(
  async (app) => {
    const headers = Object.entries(helmetHeaders());
    // On the raw response, as helmet sets them: a streamed answer (chat events) has them too.
    app.addHook('onRequest', (_request, reply, done) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      done();
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (!isApi(request.url)) return payload;
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      const type = String(reply.getHeader('content-type') ?? '');
      const isFile = type !== '' && !type.startsWith('application/json') && !type.startsWith('text/plain');
      if (isFile) {
        reply.header('content-security-policy', FILE_CSP);
        if (!reply.hasHeader('content-disposition')) reply.header('content-disposition', 'attachment');
      }
      return payload;
    });
  },
  { name: 'security-headers' },
);
