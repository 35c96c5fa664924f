import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MARKER_COOKIE } from '../../domain';
import { REFRESH_TOKEN_TTL_DAYS } from './tokens';

/**
 * Spec section 2's authentication cookie: set when a session starts or is refreshed, cleared at
 * logout. It carries no secret ('1'); the bearer token stays the only credential, so the cookie can
 * be read by the web app (no HttpOnly) and never authorises a request.
 */
export function markAuthenticated(request: FastifyRequest, reply: FastifyReply): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${AUTH_MARKER_COOKIE}=1; Path=/; Max-Age=${REFRESH_TOKEN_TTL_DAYS * 86_400}; SameSite=Lax${secure}`);
}

export function clearAuthenticated(reply: FastifyReply): void {
  reply.header('set-cookie', `${AUTH_MARKER_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`);
}
