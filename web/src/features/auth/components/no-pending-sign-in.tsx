import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { AuthPage } from './auth-page';

/**
 * A code page opened without the sign-in that asked for it (a bookmark, a reload after the session
 * store was cleared): says so in the spec's words and leads back to sign-in, instead of a silent jump.
 */
export function NoPendingSignIn({ title, message }: { title: string; message: 'userIdNotFoundForOtp' | 'userIdNotFoundForOtpVerification' }) {
  const { t } = useTranslation(['auth', 'common']);
  return (
    <AuthPage title={title}>
      <p role="alert">{t(`common:errors.${message}`)}</p>
      <p>
        <Link to={paths.login.getHref()}>{t('verifyOtp.signInAgain')}</Link>
      </p>
    </AuthPage>
  );
}
