import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useSession } from '../../auth/hooks/use-session';

/** / and /home: a short welcome and the way to the published opportunities. */
export function LandingRoute() {
  const { t } = useTranslation('common');
  usePageTitle('');
  const session = useSession();
  return (
    <div className="page hero">
      <h1>{t('landing.title')}</h1>
      <p className="lead">{t('landing.intro')}</p>
      <p className="hero-actions">
        <Link to={paths.public.opportunities.getHref()} className="button button-primary button-large">
          {t('landing.browse')}
        </Link>
        {session ? null : (
          <Link to={paths.login.getHref()} className="button button-secondary button-large">
            {t('landing.signIn')}
          </Link>
        )}
      </p>
    </div>
  );
}
