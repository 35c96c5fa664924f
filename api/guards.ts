import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Role } from '../domain';
import { forbidden } from './errors';
import { GUARD_ROLES, requireSession } from './plugins/auth';

/**
 * Route guards in one place (spec section 6). `signedIn(...roles)` is the preHandler of every
 * protected route: 401 without a valid token, 403 when the role is not allowed.
 */
export const ROLE_GROUPS = {
  /** Residents and applicants act on their own household. */
  resident: ['User', 'Tenant'],
  manager: ['Manager'],
  resident_or_manager: ['User', 'Tenant', 'Manager'],
  admin: ['Admin'],
  ambassador: ['HousingAmbassador'],
  /** Staff who work within an organisation (spec section 2: the no-linked-organisation page). */
  manager_or_ambassador: ['Manager', 'HousingAmbassador'],
  /** Support tickets (spec section 6): residents and ambassadors. */
  resident_or_ambassador: ['User', 'Tenant', 'HousingAmbassador'],
  any: ['User', 'Tenant', 'Admin', 'Manager', 'HousingAmbassador'],
} as const satisfies Record<string, readonly Role[]>;

export function signedIn(...groups: (keyof typeof ROLE_GROUPS)[]): preHandlerAsyncHookHandler {
  const allowed = new Set<Role>(groups.flatMap((g) => ROLE_GROUPS[g]));
  const guard = async function guard(request: FastifyRequest) {
    await requireSession(request);
    if (!allowed.has(request.session.role)) throw forbidden();
  };
  // The auth plugin reads these roles to run the guard before validation and to list guarded routes.
  return Object.assign(guard, { [GUARD_ROLES]: [...allowed] });
}
