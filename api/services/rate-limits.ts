import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { TooManyAttempts } from '../errors';
import { assertNotBlocked, clearThrottle, recordFailure, type ThrottleRule } from './sign-in-throttle';

/**
 * Limits on guessable actions (login, OTP, reset), each answering 429 with Retry-After:
 * - per address: every request of an action from one client address counts (@fastify/rate-limit,
 *   counters in PostgreSQL by default so every API replica shares them). The address is the
 *   socket's unless the request came through a proxy listed in TRUSTED_PROXIES, so a client cannot
 *   pick the address it is counted under;
 * - per account and address: only failures count (a wrong password, a wrong code), with growing
 *   delays once the free ones are used (api/services/sign-in-throttle.ts), so a stranger guessing an
 *   account slows down while its owner, from anywhere else, is not held back.
 */
/** Marks a preHandler that may answer 429: the OpenAPI document lists that answer (api/plugins/openapi.ts). */
export const RATE_LIMITED = Symbol.for('portal.rateLimited');

export function perAddress(app: FastifyInstance, name: string, max: number, windowMs: number): preHandlerAsyncHookHandler {
  const limiter = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: (req) => `${name}:ip:${req.ip}` });
  const addressLimit: preHandlerAsyncHookHandler = async function addressLimit(request) {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) throw new TooManyAttempts(Math.max(1, Math.ceil(result.ttl / 1000)));
  };
  return Object.assign(addressLimit, { [RATE_LIMITED]: true as const });
}

export interface FailureLimit {
  /** preHandler: refuses while this account and address pair waits out its delay. */
  guard: preHandlerAsyncHookHandler;
  /** Counts one failure for the request's account and address. */
  fail(request: FastifyRequest): Promise<void>;
  /** Forgets the failures after a success. */
  succeed(request: FastifyRequest): Promise<void>;
}

/** One spelling per account: names and emails are compared without case or surrounding spaces. */
export const accountKey = (value: string) => value.trim().toLowerCase();

export function perAccountFailures(
  app: FastifyInstance,
  name: string,
  free: number,
  windowMs: number,
  account: (request: FastifyRequest) => string | null,
): FailureLimit {
  const rule: ThrottleRule = { free, windowMs, firstDelayMs: 30_000, maxDelayMs: windowMs };
  const keyOf = (request: FastifyRequest) => {
    const who = account(request);
    return who ? `${name}:${accountKey(who)}:${request.ip}` : null;
  };
  return {
    guard: Object.assign(
      async function failureLimit(request: FastifyRequest) {
        const key = keyOf(request);
        if (key) await assertNotBlocked(app.db, [key]);
      },
      { [RATE_LIMITED]: true as const },
    ),
    async fail(request) {
      const key = keyOf(request);
      if (key) await recordFailure(app.db, key, rule);
    },
    async succeed(request) {
      const key = keyOf(request);
      if (key) await clearThrottle(app.db, key);
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

/**
 * A limit per signed-in user (run after the route's `signedIn` guard): every request of an action
 * counts against the user (the real user behind an impersonated session), wherever it comes from.
 */
export function perUser(app: FastifyInstance, name: string, max: number, windowMs: number): preHandlerAsyncHookHandler {
  const limiter = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: (req) => `${name}:user:${req.session?.realUserId ?? req.session?.userId ?? req.ip}` });
  const userLimit: preHandlerAsyncHookHandler = async function userLimit(request) {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) throw new TooManyAttempts(Math.max(1, Math.ceil(result.ttl / 1000)));
  };
  return Object.assign(userLimit, { [RATE_LIMITED]: true as const });
}

/**
 * Failures of a guessable action of a signed-in user (run after the route's `signedIn` guard),
 * counted like sign-in's: per user (the real user behind an impersonated session), whatever address
 * it comes from, and per client address, whichever accounts it uses; a blocked key answers 429.
 * The counters are sign-in's own table, shared by every API replica.
 */
export function perUserFailures(app: FastifyInstance, name: string, rules: { user: ThrottleRule; address: ThrottleRule }): FailureLimit {
  const keysOf = (request: FastifyRequest) => {
    const who = request.session?.realUserId ?? request.session?.userId;
    return { user: who ? `${name}:user:${who}` : null, address: `${name}:address:${request.ip}` };
  };
  return {
    guard: Object.assign(
      async function userFailureLimit(request: FastifyRequest) {
        const keys = keysOf(request);
        await assertNotBlocked(app.db, [keys.address, ...(keys.user ? [keys.user] : [])]);
      },
      { [RATE_LIMITED]: true as const },
    ),
    async fail(request) {
      const keys = keysOf(request);
      if (keys.user) await recordFailure(app.db, keys.user, rules.user);
      await recordFailure(app.db, keys.address, rules.address);
    },
    async succeed(request) {
      const keys = keysOf(request);
      // The address keeps its count: other accounts may be guessing from it.
      if (keys.user) await clearThrottle(app.db, keys.user);
    },
  };
}
