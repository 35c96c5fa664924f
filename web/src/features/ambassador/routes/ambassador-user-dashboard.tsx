import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { formatDate, formatPercent } from '../../../lib/format';
import { useSession } from '../../auth/hooks/use-session';
import { useUserDashboard } from '../api/ambassador';
import { AccessPanel } from '../components/access-panel';

/** /{ambassdorId}/ambassdor/user/{id}/dashboard (spec section 2): a user's dashboard as the ambassador sees it. */
export function AmbassadorUserDashboardRoute() {
  const { t } = useTranslation(['ambassador', 'leaseupApplications']);
  const { ambassdorId = '', id = '' } = useParams();
  const session = useSession();
  const errorText = useErrorText();
  const dashboard = useUserDashboard(ambassdorId, id);
  const user = dashboard.data?.user;
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : '';
  usePageTitle(name || t('userDashboard.loading'));
  // The path names the ambassador: another ambassador's link opens one's own view.
  if (session && ambassdorId !== session.user.userId) return <Navigate to={paths.ambassador.userDashboard.getHref(session.user.userId, id)} replace />;
  if (dashboard.isPending) return <Loading />;
  if (dashboard.isError) return <LoadError title={t('userDashboard.loadError')} detail={errorText(dashboard.error)} onRetry={() => void dashboard.refetch()} />;
  const { household, access } = dashboard.data;
  return (
    <div className="page">
      <p>
        <Link to={paths.ambassador.users.getHref()} className="back-link">
          {t('userDashboard.back')}
        </Link>
      </p>
      <h1>{name}</h1>
      <dl className="facts">
        <dt>{t('users.columns.username')}</dt>
        <dd>{user!.username}</dd>
        <dt>{t('users.columns.email')}</dt>
        <dd>{user!.email}</dd>
        <dt>{t('users.columns.contactNumber')}</dt>
        <dd>{user!.phoneNumber}</dd>
        <dt>{t('users.columns.status')}</dt>
        <dd>{t(`users.statuses.${user!.status}`)}</dd>
        <dt>{t('users.columns.emailVerified')}</dt>
        <dd>{user!.emailVerified ? t('users.yes') : t('users.no')}</dd>
        <dt>{t('create.organization')}</dt>
        <dd>{user!.organizationName}</dd>
      </dl>
      <AccessPanel userId={id} name={name} access={access} />
      {household ? (
        <section className="panel">
          <h2>{t('userDashboard.household')}</h2>
          <dl className="facts">
            <dt>{t('userDashboard.profile')}</dt>
            <dd>{formatPercent(household.profileCompletion)}</dd>
            <dt>{t('userDashboard.householdSize')}</dt>
            <dd>{household.householdSize}</dd>
            <dt>{t('userDashboard.recertification')}</dt>
            <dd>{household.recertification ? t('userDashboard.deadline', { date: formatDate(household.recertification.deadline) }) : t('userDashboard.noRecertification')}</dd>
          </dl>
          <h3>{t('userDashboard.applications')}</h3>
          {household.applications.length === 0 ? (
            <p>{t('userDashboard.noApplications')}</p>
          ) : (
            <ul>
              {household.applications.map((a) => (
                <li key={a.applicationId}>
                  {a.opportunityName}: {t(`leaseupApplications:status.${a.status}`)} ({formatDate(a.appliedAt)})
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        <p className="muted">{t('userDashboard.hidden')}</p>
      )}
    </div>
  );
}
