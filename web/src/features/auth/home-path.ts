import { paths, safeRedirect } from '../../config/paths';
import type { Role } from '../../lib/domain-core';

/** Spec section 4: after sign-in a housing ambassador goes to /ambassador/dashboard, everyone else to /dashboard. */
export function homePathFor(role: Role): string {
  return role === 'HousingAmbassador' ? paths.ambassador.dashboard.getHref() : paths.app.dashboard.getHref();
}

/** Where a signed-in visitor of a signed-out page goes: the remembered `redirect`, else their home. */
export function afterSignInPath(role: Role, search: string): string {
  return safeRedirect(new URLSearchParams(search).get('redirect')) ?? homePathFor(role);
}
