import { Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { paths } from '../../config/paths';
import { useLogout } from '../../features/auth/api/logout';
import { homePathFor } from '../../features/auth/home-path';
import { useSession } from '../../features/auth/hooks/use-session';
import { useErrorText } from '../../lib/errors';
import { useToast } from '../ui/toast';
import { useTokenRefresh } from '../../features/auth/hooks/use-token-refresh';
import { useApplySettings } from '../../features/settings/use-apply-settings';
import { ChatLauncher } from '../../features/chat/components/chat-launcher';
import { ImpersonationBanner } from './impersonation-banner';
import { IdleModal } from './idle-modal';
import { LanguagePicker } from './language-picker';
import { AuthMarker } from './auth-marker';
import { navItemsFor } from './nav-items';
import { MAIN_ID, SkipLink } from './skip-link';
import { PageSuspense } from '../ui/page-loading';
import { SiteFooter } from './site-footer';

const MORE_ID = 'header-more';
const NAV_ID = 'main-nav';

/**
 * Whether the phone-sized menu is open. It closes when the page changes (a link in it was followed)
 * and on Escape, which gives focus back to its button so a keyboard user is not left on a hidden link.
 */
function useCollapsedMenu() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    toggle.current?.focus();
  }
  return { open, toggle, onKeyDown, flip: () => setOpen((was) => !was) };
}

/**
 * Signed-in pages: the role's menu, the language picker and Log out. Below 48rem (CSS) the menu,
 * the language picker, settings and Log out fold behind one Menu button, so on a phone the page's
 * heading comes first and not after a screenful of links.
 */
export function SignedInLayout() {
  const { t } = useTranslation(['common', 'sideMenu']);
  const session = useSession();
  const logout = useLogout();
  const toast = useToast();
  const errorText = useErrorText();
  const menu = useCollapsedMenu();
  useTokenRefresh();
  useApplySettings(session !== null);

  function onLogout() {
    logout.mutate(undefined, { onError: (error) => toast.showError(errorText(error)) });
  }

  const name = session ? `${session.user.firstName} ${session.user.lastName}`.trim() || session.user.username : '';
  return (
    <div className="layout" onKeyDown={menu.onKeyDown}>
      <SkipLink />
      <ImpersonationBanner />
      <header className="site-header">
        {/* Each role's own home: an ambassador sent to /dashboard would be signed out. */}
        <Link to={session ? homePathFor(session.user.role) : paths.landing.getHref()} className="brand">
          {t('brand')}
        </Link>
        <div className="header-tools">
          <AuthMarker />
          {/* Messages with the managing office; its texts load on their own, so the header never waits. */}
          {session ? (
            <Suspense fallback={null}>
              <ChatLauncher role={session.user.role} />
            </Suspense>
          ) : null}
          <button
            ref={menu.toggle}
            type="button"
            className="button button-secondary menu-toggle"
            aria-expanded={menu.open}
            aria-controls={session ? `${MORE_ID} ${NAV_ID}` : MORE_ID}
            onClick={menu.flip}
          >
            {t('layout.menu')}
          </button>
          <div id={MORE_ID} className={menu.open ? 'header-more open' : 'header-more'}>
            {name ? <span className="signed-in-as">{t('layout.signedInAs', { name })}</span> : null}
            <LanguagePicker />
            <Link to={paths.settings.profileSetting.getHref()} className="button button-secondary">
              {t('sideMenu:profileSetting')}
            </Link>
            <button type="button" className="button button-secondary" onClick={onLogout} disabled={logout.isPending}>
              {logout.isPending ? t('layout.loggingOut') : t('layout.logout')}
            </button>
          </div>
        </div>
      </header>
      {session ? (
        <nav id={NAV_ID} className={menu.open ? 'main-nav open' : 'main-nav'} aria-label={t('layout.mainNav')}>
          <ul>
            {navItemsFor(session.user.role).map((item) => (
              <li key={item.key}>
                <NavLink to={item.to} end={item.key === 'dashboard'}>
                  {t(`sideMenu:${item.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <main id={MAIN_ID} className="site-main" tabIndex={-1}>
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
      <SiteFooter />
      {session ? <IdleModal onLogout={onLogout} /> : null}
    </div>
  );
}
