import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { ADMIN_ROLES, MANAGER_ROLES, RESIDENT_ROLES } from '../../../config/roles';
import { useSession } from '../../auth/hooks/use-session';
import { ResidentDashboard } from '../components/resident-dashboard';

/** /dashboard: welcome, action needed, recertification status, announcement, about, how-to (spec section 2). */
export function DashboardRoute() {
  const { t } = useTranslation(['dashboard', 'sideMenu', 'ambassador']);
  usePageTitle(t('title'));
  const session = useSession();
  const role = session?.user.role;
  const firstName = session?.user.firstName.trim();
  return (
    <div className="page">
      <h1>{firstName ? t('welcome', { name: firstName }) : t('welcomeNoName')}</h1>
      {role && RESIDENT_ROLES.includes(role) ? (
        <section className="panel">
          <p>{t('residentIntro')}</p>
          <p className="hero-actions">
            <Link to={paths.app.myApplications.getHref()} className="button button-primary button-large">
              {t('myApplicationsLink')}
            </Link>
            <Link to={paths.app.opportunities.getHref()} className="button button-secondary button-large">
              {t('opportunitiesLink')}
            </Link>
          </p>
        </section>
      ) : null}
      {role && RESIDENT_ROLES.includes(role) ? <ResidentDashboard /> : null}
      {role && MANAGER_ROLES.includes(role) ? (
        <section className="panel">
          <p>{t('managerIntro')}</p>
          <p className="hero-actions">
            <Link to={paths.manager.tasks.getHref()} className="button button-primary button-large">
              {t('managerTasksLink')}
            </Link>
          </p>
        </section>
      ) : null}
      {/* Admins land here after sign-in (spec section 4); their screens are Users and Organizations. */}
      {role && ADMIN_ROLES.includes(role) ? (
        <section className="panel">
          <p>{t('ambassador:admin.intro')}</p>
          <p className="hero-actions">
            <Link to={paths.admin.users.getHref()} className="button button-primary button-large">
              {t('sideMenu:users')}
            </Link>
            <Link to={paths.admin.organizations.getHref()} className="button button-secondary button-large">
              {t('sideMenu:organizations')}
            </Link>
          </p>
        </section>
      ) : null}
    </div>
  );
}
