import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger';
import type { requestLineWriter } from '../infra/logger';

/**
 * One line per request, written once it is answered, with the request's safe address: Fastify's
 * two lines, each redacted and written to stdout, cost the API more than a quarter of its time on
 * a short request (infra/logger.ts `requestLineWriter`). Errors still get their own line, as Fastify
 * writes them, redacted.
 */
export class OneLinePerRequest extends LogController {
  constructor(private readonly writeLine: ReturnType<typeof requestLineWriter>) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else this.writeLine(request, reply.statusCode, reply.elapsedTime);
  }
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Each request's logger (`request.log`), made only when something is logged with it: pino runs its
 * redaction over a child's bindings when the child is made, and most requests log nothing of their
 * own (their one line is `OneLinePerRequest`'s).
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  let child: FastifyBaseLogger | undefined;
  const made = () => (child ??= logger.child(bindings, options));
  const lazy: Record<string, unknown> = { child: (b: Bindings, o?: ChildLoggerOptions) => made().child(b, o) };
  for (const level of LEVELS) lazy[level] = (...args: unknown[]) => (made()[level] as (...a: unknown[]) => void)(...args);
  Object.defineProperty(lazy, 'level', { get: () => child?.level ?? options.level ?? logger.level, set: (value: string) => void (made().level = value), enumerable: true });
  return lazy as unknown as FastifyBaseLogger;
}
