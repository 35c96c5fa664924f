import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/validation-text';
import { startImpersonating } from '../../../lib/session';
import { account } from '../api/account';
import { AuthPage } from '../components/auth-page';
import { homePathFor } from '../home-path';
import { useSession } from '../hooks/use-session';

/**
 * /request-impersonate-user?userId: an ambassador (or a manager, as a manager) confirms acting for a
 * user. Not signed in: sign in first and come back here.
 */
export function RequestImpersonateUserRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const start = useMutation({
    mutationFn: () =>
      session!.user.role === 'Manager' ? account.managerImpersonate(session!.user.userId, userId) : account.impersonate(userId),
    onSuccess: (data) => {
      if (!data?.user || !data.accessToken) throw new Error('invalid');
      startImpersonating(data);
      void navigate(homePathFor(data.user.role), { replace: true });
    },
  });
  if (!session) return <Navigate to={paths.login.getHref(`${location.pathname}${location.search}`)} replace />;
  return (
    <AuthPage title={t('impersonation.title')} intro={t('impersonation.intro')}>
      {start.isError ? (
        <p className="form-error" role="alert">
          {start.error instanceof Error && start.error.message === 'invalid' ? t('common:errors.invalidImpersonationResponse') : errorText(start.error)}
        </p>
      ) : null}
      <button type="button" className="button button-primary" onClick={() => start.mutate()} disabled={!userId || start.isPending}>
        {t('impersonation.start')}
      </button>
    </AuthPage>
  );
}
