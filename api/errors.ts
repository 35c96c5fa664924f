import type { z } from 'zod';
import { MESSAGES, type ErrorData, type MessageCode } from '../domain';

/** A refusal the API answers with a 4xx in the spec's envelope. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorData['code'],
    message: string = code in MESSAGES ? MESSAGES[code as MessageCode] : code,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (code: MessageCode = 'notFound') => new HttpError(404, code);
export const forbidden = () => new HttpError(403, 'forbidden');
export const conflict = (code: MessageCode) => new HttpError(409, code);
export const unprocessable = (code: MessageCode) => new HttpError(422, code);

/** Parses a body whose schema depends on the route's parameters (e.g. the action named in the path): 400 on bad input. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new HttpError(400, 'validation', parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
}

/** 429 ('Too many attempts', or a more precise code), telling the client when to try again (Retry-After, in seconds). */
export class TooManyAttempts extends HttpError {
  constructor(
    readonly retryAfterSeconds: number,
    code: MessageCode = 'tooManyAttempts',
  ) {
    super(429, code);
    this.name = 'TooManyAttempts';
  }
}
