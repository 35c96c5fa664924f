import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useSession } from '../../auth/hooks/use-session';

/** Where a housing ambassador lands after sign-in (spec section 4). User counts and lists come with the ambassador pages. */
export function AmbassadorDashboardRoute() {
  const { t } = useTranslation('auth');
  const session = useSession();
  usePageTitle(t('ambassador.title'));
  return (
    <div className="page">
      <h1>{t('ambassador.title')}</h1>
      <p>{t('ambassador.welcome', { name: session?.user.firstName ?? '' })}</p>
    </div>
  );
}
