import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, isGrpcServiceError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MESSAGES, isMessageCode, type Envelope, type ErrorData } from '../../domain';
import { HttpError, statusForRefusal } from '../errors';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends `data` in the spec's envelope `{status, message, data}`. */
    ok<T>(data: T, message?: string, status?: number): FastifyReply;
  }
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
      if (error instanceof HttpError) {
        return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message, { code: error.code }));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues = error.validation.map((v) => ({
          path: [error.validationContext, ...(v.instancePath ? v.instancePath.split('/').filter(Boolean) : [])].join('.'),
          message: v.message ?? 'Invalid value',
        }));
        return reply.code(400).send(errorBody(400, issues[0]?.message ?? 'Invalid request', { code: 'validation', issues }));
      }
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
        const code = error.cause.type ?? 'unknown';
        const status = statusForRefusal(code);
        return reply.code(status).send(errorBody(status, error.cause.message, { code: isMessageCode(code) || code === 'validation' ? code : 'unknown' }));
      }
      if (error instanceof WorkflowNotFoundError) {
        return reply.code(404).send(errorBody(404, MESSAGES.notFound, { code: 'notFound' }));
      }
      if (isGrpcServiceError(error) && [4, 14].includes((error as { code?: number }).code ?? -1)) {
        request.log.warn({ err: error }, 'temporal unavailable');
        return reply.code(503).send(errorBody(503, MESSAGES.serviceUnavailable, { code: 'serviceUnavailable' }));
      }
      const statusCode = (error as Partial<FastifyError>).statusCode;
      const status = typeof statusCode === 'number' ? statusCode : 500;
      if (status >= 400 && status < 500) {
        // Fastify's own 4xx (malformed JSON, unsupported media type, body too large...).
        return reply.code(status).send(errorBody(status, error.message, { code: 'validation' }));
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(errorBody(500, MESSAGES.unexpectedError, { code: 'unknown' }));
    });
  },
  { name: 'envelope' },
);
