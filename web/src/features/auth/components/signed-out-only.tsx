import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../hooks/use-session';
import { afterSignInPath } from '../home-path';

/**
 * Spec section 2: a signed-in visitor to a signed-out-only page (login...) is sent on. This is also
 * how a fresh sign-in leaves /login: to the remembered `redirect`, else the role's home page
 * (section 4), so an ambassador is not sent to a resident page that would log them out again.
 */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session) return <Navigate to={afterSignInPath(session.user.role, location.search)} replace />;
  return <>{children}</>;
}
