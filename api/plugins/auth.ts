import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { parseRole, ROLES, type Role } from '../../domain';
import type { Config } from '../../infra/config';
import { safeRequestUrl } from '../../infra/logger';
import { HttpError } from '../errors';
import { SECRET_ROUTES } from '../secret-routes';
import { assertImpersonationLive } from '../services/impersonation';
import { setCodePepper } from '../services/otp';
import { SessionCache, sessionCache } from '../services/session-cache';
import { isSessionLive } from '../services/tokens';
import type { Session, TokenClaims } from '../session';
import { postgresRateLimitStore } from './rate-limit-store';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session; set by `requireSession`. */
    session: Session;
  }
  interface FastifyContextConfig {
    /** The route ends an impersonation, so it still answers after the household's grant ended. */
    endsImpersonation?: boolean;
  }
  interface FastifyInstance {
    signAccessToken(claims: TokenClaims): { token: string; expiresAt: Date };
    /** Every guarded route (`METHOD /url`) and the roles its guard allows: the role x route matrix test reads it. */
    routeGuards: Map<string, readonly Role[]>;
  }
}

/** Marks a guard function with the roles it allows (set by `signedIn` in api/guards.ts). */
export const GUARD_ROLES = Symbol.for('portal.guardRoles');
type Guard = ((...args: never[]) => unknown) & { [GUARD_ROLES]?: readonly Role[] };

export const authPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const secret = config.JWT_PRIVATE_KEY && config.JWT_PUBLIC_KEY
      ? { private: config.JWT_PRIVATE_KEY, public: config.JWT_PUBLIC_KEY }
      : config.JWT_SECRET!;
    await app.register(fastifyJwt, {
      secret,
      sign: { algorithm: typeof secret === 'string' ? 'HS256' : 'RS256', expiresIn: config.ACCESS_TOKEN_TTL_SECONDS },
    });
    app.decorateRequest('session', null as unknown as Session);
    const routeGuards = new Map<string, readonly Role[]>();
    app.decorate('routeGuards', routeGuards);
    // A guard given as preHandler also runs at onRequest, before the body is parsed and validated,
    // so a protected route answers 401/403 first, whatever the input (spec section 7: 401 without a token).
    app.addHook('onRoute', (route) => {
      const handlers = [route.preHandler].flat().filter(Boolean) as Guard[];
      const guards = handlers.filter((h) => h === requireSession || Boolean(h[GUARD_ROLES]));
      if (guards.length === 0) return;
      const roles = guards.reduce<readonly Role[]>((acc, g) => acc.filter((r) => (g === requireSession ? ROLES : g[GUARD_ROLES]!).includes(r)), ROLES);
      for (const method of [route.method].flat()) routeGuards.set(`${method} ${route.url}`, roles);
      route.onRequest = [...([route.onRequest].flat().filter(Boolean) as never[]), ...(guards as never[])];
    });
    setCodePepper(config.DATA_ENCRYPTION_KEY);
    // Limits are opted into per route (login, OTP, reset...): see api/services/rate-limits.ts.
    await app.register(fastifyRateLimit, {
      global: false,
      errorResponseBuilder: () => new HttpError(429, 'tooManyAttempts'),
      // Shared by every API replica unless RATE_LIMIT_STORE=memory.
      ...(config.RATE_LIMIT_STORE === 'postgres' ? { store: postgresRateLimitStore(app.db) } : {}),
    });
    // Spec section 4: every request made while impersonating is recorded with both users. The line is
    // written before the answer leaves (onSend), so the audit's order is the order of the requests and
    // no answered request goes unrecorded; a reply that never passes onSend (a hijacked event stream)
    // is recorded once it ends.
    const audited = new WeakSet<FastifyRequest>();
    const audit = async (request: FastifyRequest, statusCode: number) => {
      const session = request.session;
      if (!session?.realUserId || audited.has(request)) return;
      audited.add(request);
      await app.db
        .insertInto('impersonation_audit')
        .values({
          real_user_id: session.realUserId,
          acting_user_id: session.userId,
          event: 'request',
          method: request.method,
          // The route pattern for routes carrying a secret (an OTP in the path must not land in the audit).
          path: safeRequestUrl(request, SECRET_ROUTES).split('?')[0]!.slice(0, 500),
          status_code: statusCode,
        })
        .execute()
        .catch((err: unknown) => request.log.error({ err }, 'impersonation audit failed'));
    };
    app.addHook('onSend', async (request, reply, payload) => {
      await audit(request, reply.statusCode);
      return payload;
    });
    app.addHook('onResponse', async (request, reply) => audit(request, reply.statusCode));
    app.decorate('signAccessToken', (claims: TokenClaims) => {
      const expiresAt = new Date(Date.now() + config.ACCESS_TOKEN_TTL_SECONDS * 1000);
      return { token: app.jwt.sign(claims), expiresAt };
    });
  },
  { name: 'auth' },
);

/** preHandler: a valid access token is required (401 otherwise); unknown role claims are refused. */
export async function requireSession(request: FastifyRequest): Promise<void> {
  // Already checked at onRequest for this request.
  if (request.session) return;
  let claims: TokenClaims;
  try {
    claims = await request.jwtVerify<TokenClaims>();
  } catch {
    throw new HttpError(401, 'unauthorized');
  }
  const role = parseRole(claims.role);
  if (!role || typeof claims.sub !== 'string') throw new HttpError(401, 'unauthorized');
  const familyId = typeof claims.fam === 'string' ? claims.fam : null;
  // Logout and refresh-token reuse revoke the family, and a disabled user is out: their access
  // tokens stop working at once, not when they expire.
  if (!(await sessionLive(request, claims, familyId))) throw new HttpError(401, 'unauthorized');
  request.session = { userId: claims.sub, role, realUserId: claims.realUserId ?? null, familyId };
  // Consented access: an ambassador acts for a household only while its grant is live.
  if (request.session.realUserId && !request.routeOptions.config.endsImpersonation) await assertImpersonationLive(request.server.db, request.session);
}

/**
 * The token's session check, answered from this process's cache while a recent check said live
 * (api/services/session-cache.ts says what that costs across replicas), else one query.
 */
async function sessionLive(request: FastifyRequest, claims: TokenClaims & { exp?: number }, familyId: string | null): Promise<boolean> {
  const realUserId = claims.realUserId ?? null;
  const key = SessionCache.key(claims.sub, familyId, realUserId);
  if (sessionCache.isLive(key)) return true;
  const started = sessionCache.begin();
  const live = await isSessionLive(request.server.db, claims.sub, familyId, realUserId);
  const ttlMs = request.server.config.SESSION_CHECK_CACHE_SECONDS * 1000;
  if (live && ttlMs > 0) {
    const until = Math.min(Date.now() + ttlMs, (claims.exp ?? 0) * 1000);
    sessionCache.remember(key, started, until, { userIds: realUserId ? [claims.sub, realUserId] : [claims.sub], familyId });
  }
  return live;
}

/**
 * preHandler after a guard: signing documents and changing credentials (signature, contact details)
 * are refused while an ambassador or manager acts for the user (spec section 4).
 */
export async function refuseWhileImpersonating(request: FastifyRequest): Promise<void> {
  if (request.session?.realUserId) throw new HttpError(403, 'notAllowedWhileImpersonating');
}
