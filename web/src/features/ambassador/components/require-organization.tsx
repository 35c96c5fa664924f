import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { Loading } from '../../../components/ui/status-message';
import { paths } from '../../../config/paths';
import { useOrganizationLink } from '../api/organization-link';

/**
 * Spec section 2: a manager or ambassador with no linked organisation sees the no-permission page
 * (which links to apply) instead of pages that would only refuse them.
 */
export function RequireOrganization({ children }: { children: ReactNode }) {
  const link = useOrganizationLink();
  if (link.isPending) return <Loading />;
  if (link.data && !link.data.linked) return <Navigate to={paths.noOrganization.getHref()} replace />;
  // A failed check does not block the page: its own calls answer with their errors.
  return <>{children}</>;
}
