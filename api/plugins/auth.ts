import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import type { FastifyRequest } from 'fastify';
import { parseRole, type Role } from '../../domain';
import type { Config } from '../../infra/config';
import { HttpError } from '../errors';

/** What an access token says: who acts, with which role, and who really signed in when impersonating. */
export interface TokenClaims {
  sub: string;
  role: Role;
  /** The ambassador or manager behind an impersonated session (spec section 4). */
  realUserId?: string;
}

export interface Session {
  userId: string;
  role: Role;
  realUserId: string | null;
}

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
  interface FastifyInstance {
    signAccessToken(claims: TokenClaims): { token: string; expiresAt: Date };
  }
}

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
    app.decorate('signAccessToken', (claims: TokenClaims) => {
      const expiresAt = new Date(Date.now() + config.ACCESS_TOKEN_TTL_SECONDS * 1000);
      return { token: app.jwt.sign(claims), expiresAt };
    });
  },
  { name: 'auth' },
);

/** preHandler: a valid access token is required (401 otherwise); unknown role claims are refused. */
export async function requireSession(request: FastifyRequest): Promise<void> {
  let claims: TokenClaims;
  try {
    claims = await request.jwtVerify<TokenClaims>();
  } catch {
    throw new HttpError(401, 'unauthorized');
  }
  const role = parseRole(claims.role);
  if (!role || typeof claims.sub !== 'string') throw new HttpError(401, 'unauthorized');
  request.session = { userId: claims.sub, role, realUserId: claims.realUserId ?? null };
}
