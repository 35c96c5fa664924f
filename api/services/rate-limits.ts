import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { HttpError } from '../errors';

/**
 * Limits on guessable actions (login, OTP, reset), built on @fastify/rate-limit's counters:
 * - per address: every request of an action from one client address counts;
 * - per account: only failures count (a wrong password, a wrong code), so a person who signs in
 *   often is never locked out, while guessing one account's password or code from many addresses is.
 * Memory store: with several API replicas, give @fastify/rate-limit a shared (Redis) store.
 */
const tooMany = () => new HttpError(429, 'tooManyAttempts');

export function perAddress(app: FastifyInstance, name: string, max: number, windowMs: number): preHandlerAsyncHookHandler {
  const limiter = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: (req) => `${name}:ip:${req.ip}` });
  return async function addressLimit(request) {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) throw tooMany();
  };
}

export interface FailureLimit {
  /** preHandler: refuses once the account has used up its failures in the window. */
  guard: preHandlerAsyncHookHandler;
  /** Counts one failure for the request's account. */
  fail(request: FastifyRequest): Promise<void>;
}

export function perAccountFailures(
  app: FastifyInstance,
  name: string,
  max: number,
  windowMs: number,
  account: (request: FastifyRequest) => string | null,
): FailureLimit {
  const limiter = app.createRateLimit({
    max,
    timeWindow: windowMs,
    keyGenerator: (req) => `${name}:acct:${(account(req) ?? '').toLowerCase()}`,
  });
  return {
    async guard(request) {
      if (!account(request)) return;
      const result = await limiter(request, { increment: false });
      if (!result.isAllowed && result.remaining === 0) throw tooMany();
    },
    async fail(request) {
      if (account(request)) await limiter(request);
    },
  };
}

/** Reads a string field from the parsed JSON body or the route params. */
export function field(name: string) {
  return (request: FastifyRequest): string | null => {
    const body = request.body as Record<string, unknown> | undefined;
    const params = request.params as Record<string, unknown> | undefined;
    const value = body?.[name] ?? params?.[name];
    return typeof value === 'string' ? value : null;
  };
}
