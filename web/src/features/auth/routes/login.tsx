import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { LoginForm } from '../components/login-form';

export function LoginRoute() {
  const { t } = useTranslation(['common', 'auth']);
  return (
    <div className="page page-narrow">
      <h1>{t('login.title')}</h1>
      <p>{t('login.intro')}</p>
      <LoginForm />
      <ul className="link-list">
        <li>
          <Link to={paths.auth.forgetPassword.getHref()}>{t('auth:login.forgotPassword')}</Link>
        </li>
        <li>
          <Link to={paths.auth.forgetUsername.getHref()}>{t('auth:login.forgotUsername')}</Link>
        </li>
        <li>
          <Link to={paths.auth.register.getHref()}>{t('auth:login.register')}</Link>
        </li>
      </ul>
    </div>
  );
}
