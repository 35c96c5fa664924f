import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { account } from '../api/account';
import { AuthPage } from '../components/auth-page';

export function LinkExpiredRoute() {
  const { t } = useTranslation('auth');
  return (
    <AuthPage title={t('linkExpired.title')} intro={t('linkExpired.body')}>
      <Link className="button button-primary" to={paths.auth.forgetPassword.getHref()}>
        {t('linkExpired.again')}
      </Link>
    </AuthPage>
  );
}

/** /verify-email?userId&token (spec section 8 messages). */
export function VerifyEmailRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const token = params.get('token') ?? '';
  // A link without its user or token cannot verify anything: say so without asking the server.
  const complete = userId !== '' && token !== '';
  const verify = useQuery({ queryKey: ['verify-email', userId, token], queryFn: () => account.verifyEmail(userId, token), retry: false, staleTime: Infinity, enabled: complete });
  const message = !complete
    ? t('common:errors.emailVerificationFailed')
    : verify.isPending
      ? t('common:actions.loading')
    : verify.isSuccess
      ? t('common:errors.emailVerified')
      : verify.error instanceof ApiError && verify.error.status < 500
        ? t('common:errors.emailVerificationFailed')
        : t('common:errors.emailVerificationError');
  return (
    <AuthPage title={t('verifyEmail.title')}>
      <p role="status">{message}</p>
      <Link className="button button-primary" to={paths.login.getHref()}>
        {t('register.toLogin')}
      </Link>
    </AuthPage>
  );
}

/** The terms say the product only collects data and runs the workflow; people decide (spec section 1). */
export function TermsOfUseRoute() {
  const { t } = useTranslation('auth');
  return (
    <AuthPage title={t('terms.title')}>
      <p>{t('terms.body1')}</p>
      <p>{t('terms.body2')}</p>
    </AuthPage>
  );
}

export function PrivacyPolicyRoute() {
  const { t } = useTranslation('auth');
  return (
    <AuthPage title={t('privacy.title')}>
      <p>{t('privacy.body1')}</p>
      <p>{t('privacy.body2')}</p>
    </AuthPage>
  );
}
