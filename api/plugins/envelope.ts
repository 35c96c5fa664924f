import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { WorkflowNotFoundError, isGrpcServiceError } from '@temporalio/client';
import { MESSAGES, type Envelope, type ErrorData } from '../../domain';
import { isTemporalUnavailable } from '../../infra/temporal/connection';
import { HttpError, TooManyAttempts } from '../errors';

/** Seconds a client should wait before trying a Temporal action again. */
export const TEMPORAL_RETRY_AFTER_SECONDS = 5;

declare module 'fastify' {
  interface FastifyReply {
    /** Sends `data` in the spec's envelope `{status, message, data}`. */
    ok<T>(data: T, message?: string, status?: number): FastifyReply;
  }
}

/** Seconds a client should wait before trying again while PostgreSQL is out of reach (a restart takes a few). */
const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * PostgreSQL out of reach or restarting, as node-postgres reports it: a refused or dropped
 * connection, a pool that could not connect in time, or the server's own shutdown and start-up
 * codes (57P01-57P03) and its connection-exception class (codes starting 08).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (/^08...$/.test(code) || ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i.test(error.message);
}

function errorBody(status: number, message: string, data: ErrorData): Envelope<ErrorData> {
  return { status, message, data };
}

/**
 * One error handler for the whole API: every failure answers in the envelope; bad input is a 4xx
 * naming the problem; only a genuine fault is a 500, with a generic message and the detail in the log.
 */
export const envelopePlugin = fp(
  async (app) => {
    app.decorateReply('ok', function <T>(this: FastifyReply, data: T, message = 'OK', status = 200) {
      return this.code(status).send({ status, message, data } satisfies Envelope<T>);
    });

    app.setErrorHandler((error: FastifyError | Error, request, reply) => {
      if (error instanceof TooManyAttempts) reply.header('retry-after', String(error.retryAfterSeconds));
      if (error instanceof HttpError) {
        const issues = (error as { issues?: ErrorData['issues'] }).issues;
        return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message, { code: error.code, ...(issues ? { issues } : {}) }));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues = error.validation.map((v) => ({
          path: [error.validationContext, ...(v.instancePath ? v.instancePath.split('/').filter(Boolean) : [])].join('.'),
          message: v.message ?? 'Invalid value',
        }));
        return reply.code(400).send(errorBody(400, issues[0]?.message ?? 'Invalid request', { code: 'validation', issues }));
      }
      // A case's refusal arrives here as an HttpError (api/services/cases.ts); a Query of a case
      // whose workflow and projection are both gone, as Temporal's not-found.
      if (error instanceof WorkflowNotFoundError) {
        return reply.code(404).send(errorBody(404, MESSAGES.notFound, { code: 'notFound' }));
      }
      // Temporal down, stalled or timed out, however the SDK wrapped it: 503 at once, with Retry-After.
      if (isTemporalUnavailable(error) || (isGrpcServiceError(error) && [4, 14].includes((error as { code?: number }).code ?? -1))) {
        request.log.warn({ err: { name: error.name, message: error.message } }, 'temporal unavailable');
        return reply.code(503).header('retry-after', String(TEMPORAL_RETRY_AFTER_SECONDS)).send(errorBody(503, MESSAGES.serviceUnavailable, { code: 'serviceUnavailable' }));
      }
      // The portal's PostgreSQL restarting or out of reach: nothing was saved, so the client may try again.
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: { name: error.name, message: error.message } }, 'database unavailable');
        return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(errorBody(503, MESSAGES.serviceUnavailable, { code: 'serviceUnavailable' }));
      }
      const statusCode = (error as Partial<FastifyError>).statusCode;
      const status = typeof statusCode === 'number' ? statusCode : 500;
      if (status >= 400 && status < 500) {
        // Fastify's own 4xx (malformed JSON, unsupported media type, body too large...).
        return reply.code(status).send(errorBody(status, error.message, { code: 'validation' }));
      }
      if ((error as { code?: string }).code?.startsWith('FST_') && status >= 500 && status < 600) {
        return reply.code(status).send(errorBody(status, MESSAGES.unexpectedError, { code: 'unknown' }));
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(errorBody(500, MESSAGES.unexpectedError, { code: 'unknown' }));
    });
  },
  { name: 'envelope' },
);

/**
 * Fastify's own refusals before routing (a parameter over the length limit: 414, a malformed URL:
 * 400) in the envelope. The address itself is not echoed: it may hold a secret.
 */
export function frameworkError(error: FastifyError, _request: unknown, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message = status === 414 ? 'The address is too long' : 'The address is not valid';
  void reply.code(status).send(errorBody(status, message, { code: 'validation' }));
}
