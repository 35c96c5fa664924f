import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Role } from '../../../lib/domain-core';
import { clearSession } from '../../../lib/session';
import { useSession } from '../hooks/use-session';

interface ProtectedRouteProps {
  roles: readonly Role[];
  /** Where to go instead of signing in, e.g. the public opportunity detail (spec section 2). */
  fallback?: string;
  children: ReactNode;
}

/**
 * Spec section 2 access rule: a protected page visited without an allowed role logs the user out
 * and redirects to /login, remembering the origin in `redirect`.
 */
export function ProtectedRoute({ roles, fallback, children }: ProtectedRouteProps) {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const origin = `${location.pathname}${location.search}`;
  const allowed = session !== null && roles.includes(session.user.role);

  useEffect(() => {
    if (session && !allowed && !fallback) {
      clearSession();
      void navigate(paths.login.getHref(origin), { replace: true });
    }
  }, [session, allowed, fallback, navigate, origin]);

  if (allowed) return <>{children}</>;
  if (fallback) return <Navigate to={fallback} replace />;
  if (!session) return <Navigate to={paths.login.getHref(origin)} replace />;
  return null;
}
