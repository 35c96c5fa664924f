import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { homePathFor } from '../../auth/home-path';
import { useSession } from '../../auth/hooks/use-session';

/** Spec section 2: any other path shows a not-found page. */
export function NotFoundRoute() {
  const { t } = useTranslation('common');
  usePageTitle(t('notFound.title'));
  const session = useSession();
  return (
    <div className="page page-narrow">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <Link to={session ? homePathFor(session.user.role) : paths.landing.getHref()} className="button button-primary">
        {t('notFound.home')}
      </Link>
    </div>
  );
}
