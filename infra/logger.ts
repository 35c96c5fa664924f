import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import type { Config } from './config';

/**
 * Personal data never reaches the logs: these paths are censored wherever they appear in a logged
 * object (request bodies, workflow views, errors), plus the Authorization header.
 */
const SENSITIVE_FIELDS = [
  'password',
  'confirmPassword',
  'ssn',
  'itin',
  'alienRegistrationNumber',
  'accessToken',
  'refreshToken',
  'deviceToken',
  'challengeToken',
  'token',
  'otp',
  'income',
  'householdIncome',
  'annualIncome',
  'amount',
  'balance',
  'fileContent',
  'signatureBase64',
];

/** Each sensitive field at the top, one and two levels down, and inside arrays of objects. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-device-token"]',
  ...SENSITIVE_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*[*].${f}`, `*.*[*].${f}`]),
];

export const REDACTED = '[redacted]';

/** What a request log line may say about the request's address (see `safeRequestUrl`). */
interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  routeOptions?: { url?: string };
}

/**
 * The address of a request as it may appear in a log line: for a route that carries a secret in its
 * path or query (`secretRoutes`, "METHOD /pattern"), only the route pattern; for any other route
 * the path with every query value replaced; for a path no route matched, the path with any segment
 * that looks like a token or a code replaced, and no query values.
 */
export function safeRequestUrl(request: LoggedRequest, secretRoutes: ReadonlySet<string>): string {
  const pattern = request.routeOptions?.url;
  if (pattern && secretRoutes.has(`${request.method} ${pattern}`)) return pattern;
  const [path = '', query] = (request.url ?? '').split('?', 2);
  const safeQuery = query
    ? `?${query
        .split('&')
        .map((pair) => `${pair.split('=', 1)[0]}=${REDACTED}`)
        .join('&')}`
    : '';
  if (pattern) return `${path}${safeQuery}`;
  const safePath = path
    .split('/')
    .map((segment) => (/^[A-Za-z0-9_%-]{20,}$/.test(segment) && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment)) || /\d{6}/.test(segment) ? REDACTED : segment)
    .join('/');
  return `${safePath.slice(0, 300)}${safeQuery}`;
}

export interface LoggerExtras {
  /** Routes whose path or query carries a secret (the API's list, api/secret-routes.ts). */
  secretRoutes?: ReadonlySet<string>;
  /** Where lines go (default stdout); the test stack appends them to a file the log scan reads. */
  stream?: DestinationStream;
}

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, name: string, extras: LoggerExtras = {}): LoggerOptions & { stream?: DestinationStream } {
  const secretRoutes = extras.secretRoutes ?? new Set<string>();
  return {
    name,
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      // Fastify's request line, with the address made safe and no headers.
      req: (request: LoggedRequest) => safeRequestFields(request, secretRoutes),
    },
    ...(extras.stream ? { stream: extras.stream } : {}),
  };
}

/** What a log line says of a request: its method, safe address, route pattern and client address; no header, no body. */
function safeRequestFields(request: LoggedRequest, secretRoutes: ReadonlySet<string>) {
  return { method: request.method, url: safeRequestUrl(request, secretRoutes), route: request.routeOptions?.url, remoteAddress: request.ip };
}

/**
 * Writes the one line of each answered request (`request completed`, as Fastify's logger writes it,
 * to the same destination). Every field is built here from the request's safe address and the
 * answer's status, never from a body, a header or a value the caller named, so the line skips pino's
 * redaction: that walk over every sensitive path, wildcards and all, cost the API more time on a
 * short request than answering it. Anything else the API logs still goes through `loggerOptions`.
 */
export function requestLineWriter(config: Pick<Config, 'LOG_LEVEL'>, name: string, extras: LoggerExtras & { stream: DestinationStream }) {
  const secretRoutes = extras.secretRoutes ?? new Set<string>();
  const lines = pino({ name, level: config.LOG_LEVEL }, extras.stream);
  return (request: LoggedRequest & { id: string }, statusCode: number, responseTime: number): void => {
    lines.info({ reqId: request.id, req: safeRequestFields(request, secretRoutes), res: { statusCode }, responseTime }, 'request completed');
  };
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, name: string) {
  return pino(loggerOptions(config, name));
}
