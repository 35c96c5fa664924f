import { useTranslation } from 'react-i18next';
import { LoginForm } from '../components/login-form';

export function LoginRoute() {
  const { t } = useTranslation('common');
  return (
    <div className="page page-narrow">
      <h1>{t('login.title')}</h1>
      <p>{t('login.intro')}</p>
      <LoginForm />
    </div>
  );
}
