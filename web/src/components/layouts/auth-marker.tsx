import { useTranslation } from 'react-i18next';
import { useSession } from '../../features/auth/hooks/use-session';
import { hasAuthCookie } from '../../lib/auth-cookie';

/** Spec section 2: an Authenticated marker while the authentication cookie exists. */
export function AuthMarker() {
  const { t } = useTranslation('common');
  // Read on every session change: the cookie arrives with the sign-in answer and leaves at logout.
  useSession();
  if (!hasAuthCookie()) return null;
  return (
    <span className="auth-marker" data-testid="auth-marker">
      {t('layout.authenticated')}
    </span>
  );
}
