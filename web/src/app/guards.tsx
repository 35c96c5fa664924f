import { Outlet, useParams } from 'react-router-dom';
import { paths } from '../config/paths';
import { RequireOrganization } from '../features/ambassador/components/require-organization';
import { ProtectedRoute } from '../features/auth/components/protected-route';
import { RESIDENT_ROLES } from '../config/roles';
import type { Role } from '../lib/domain-core';
import { lazyRoute } from './lazy-route';

// The guards of the signed-in pages, in their own chunk: public pages never render them,
// so the role check and the organisation link query stay out of their first load.
const OpportunityRoute = lazyRoute(() => import('../features/opportunities/routes/opportunity'), 'OpportunityRoute');

export function Protected({ roles, organization = false }: { roles: readonly Role[]; organization?: boolean }) {
  return (
    <ProtectedRoute roles={roles}>
      {/* Spec section 2: staff with no linked organisation see the no-permission page instead. */}
      {organization ? (
        <RequireOrganization>
          <Outlet />
        </RequireOrganization>
      ) : (
        <Outlet />
      )}
    </ProtectedRoute>
  );
}

/** Spec section 2: without a resident role the opportunity detail falls back to its public page. */
export function ProtectedOpportunity() {
  const { id = '' } = useParams();
  return (
    <ProtectedRoute roles={RESIDENT_ROLES} fallback={paths.public.opportunity.getHref(id)}>
      <OpportunityRoute variant="app" />
    </ProtectedRoute>
  );
}
