import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useSession } from '../../features/auth/hooks/use-session';
import { homePathFor } from '../../features/auth/home-path';
import { useTokenRefresh } from '../../features/auth/hooks/use-token-refresh';
import { LanguagePicker } from './language-picker';
import { AuthMarker } from './auth-marker';
import { MAIN_ID, SkipLink } from './skip-link';
import { PageSuspense } from '../ui/page-loading';
import { SiteFooter } from './site-footer';

/** Public pages (spec section 2): brand, language picker and a Login link (or the way back in). */
export function PublicLayout() {
  const { t } = useTranslation('common');
  const session = useSession();
  // A signed-in visitor of public pages keeps a fresh token too (spec section 4).
  useTokenRefresh();
  return (
    <div className="layout">
      <SkipLink />
      <header className="site-header">
        <Link to={paths.landing.getHref()} className="brand">
          {t('brand')}
        </Link>
        <div className="header-tools">
          <AuthMarker />
          <LanguagePicker />
          {session ? (
            <Link to={homePathFor(session.user.role)} className="button button-secondary">
              {t('layout.myDashboard')}
            </Link>
          ) : (
            <Link to={paths.login.getHref()} className="button button-primary">
              {t('layout.login')}
            </Link>
          )}
        </div>
      </header>
      <main id={MAIN_ID} className="site-main" tabIndex={-1}>
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
      <SiteFooter />
    </div>
  );
}
