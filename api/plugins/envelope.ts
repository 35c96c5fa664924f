import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
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
 * Whatever was thrown, as an Error the checks below can read: a thrown string, number or plain
 * object becomes an Error with a generic message, and a `code` or `statusCode` of the wrong type is
 * dropped, so no check trips over a shape it did not expect.
 */
function normalise(thrown: unknown): Error & { code?: string; statusCode?: number } {
  if (!(thrown instanceof Error)) {
    const statusCode = (thrown as { statusCode?: unknown } | null)?.statusCode;
    return Object.assign(new Error('Non-error thrown'), typeof statusCode === 'number' ? { statusCode } : {});
  }
  return thrown as Error & { code?: string; statusCode?: number };
}

/** A thrown value as the log may show it: name and message only for an Error, its type otherwise. */
function describeThrown(thrown: unknown) {
  return thrown instanceof Error ? { name: String(thrown.name), message: String(thrown.message), stack: thrown.stack } : { type: typeof thrown };
}

/**
 * The answer to a request no route takes: 405 with `Allow` when the API serves the path with other
 * methods (RFC 9110: a client can tell a wrong method from a wrong address), else 404.
 */
export function unroutedAnswer(request: FastifyRequest, reply: FastifyReply) {
  return wrongMethod(request, reply) ?? reply.code(404).send(errorBody(404, MESSAGES.notFound, { code: 'notFound' }));
}

/** 405 with `Allow` when the path is served, but not with this method; else null. */
function wrongMethod(request: FastifyRequest, reply: FastifyReply): FastifyReply | null {
  const path = request.url.split('?')[0]!;
  const allowed = path.startsWith('/api/') ? request.server.methodsAt(path) : [];
  if (allowed.length === 0 || allowed.includes(request.method)) return null;
  return reply.code(405).header('allow', allowed.join(', ')).send(errorBody(405, 'This address does not take this method', { code: 'validation' }));
}

function answerError(thrown: unknown, request: FastifyRequest, reply: FastifyReply) {
  // No route takes the request: what its body or headers lack (a QUERY without a content type) does not matter.
  if (request.is404) return unroutedAnswer(request, reply);
  const error = normalise(thrown);
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
  const code: unknown = (error as { code?: unknown }).code;
  // Temporal down, stalled or timed out, however the SDK wrapped it: 503 at once, with Retry-After.
  if (isTemporalUnavailable(error) || (isGrpcServiceError(error) && typeof code === 'number' && [4, 14].includes(code))) {
    request.log.warn({ err: { name: error.name, message: error.message } }, 'temporal unavailable');
    return reply.code(503).header('retry-after', String(TEMPORAL_RETRY_AFTER_SECONDS)).send(errorBody(503, MESSAGES.serviceUnavailable, { code: 'serviceUnavailable' }));
  }
  // The portal's PostgreSQL restarting or out of reach: nothing was saved, so the client may try again.
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: { name: error.name, message: error.message } }, 'database unavailable');
    return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(errorBody(503, MESSAGES.serviceUnavailable, { code: 'serviceUnavailable' }));
  }
  const statusCode: unknown = (error as { statusCode?: unknown }).statusCode;
  const status = typeof statusCode === 'number' && Number.isInteger(statusCode) ? statusCode : 500;
  if (status >= 400 && status < 500) {
    // Fastify's own 4xx (malformed JSON, unsupported media type, body too large...).
    const message = typeof error.message === 'string' && error.message.length > 0 ? error.message : 'Invalid request';
    return reply.code(status).send(errorBody(status, message, { code: 'validation' }));
  }
  if (typeof code === 'string' && code.startsWith('FST_') && status >= 500 && status < 600) {
    return reply.code(status).send(errorBody(status, MESSAGES.unexpectedError, { code: 'unknown' }));
  }
  request.log.error({ err: thrown instanceof Error ? thrown : describeThrown(thrown) }, 'request failed');
  return reply.code(500).send(errorBody(500, MESSAGES.unexpectedError, { code: 'unknown' }));
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

    // `PUT /x/list` reaches `PUT /x/:id` when only `GET /x/list` exists: the path is the static route's,
    // whose methods answer (405, before any guard or schema), not an id of `/x/:id`.
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.url?.includes(':')) return wrongMethod(request, reply) ?? undefined;
    });

    app.setErrorHandler((thrown: unknown, request, reply) => {
      try {
        return answerError(thrown, request, reply);
      } catch (fault) {
        // The handler itself must never be the failure: whatever went wrong, the envelope goes out.
        request.log.error({ err: describeThrown(fault) }, 'error handler failed');
        return reply.code(500).send(errorBody(500, MESSAGES.unexpectedError, { code: 'unknown' }));
      }
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
