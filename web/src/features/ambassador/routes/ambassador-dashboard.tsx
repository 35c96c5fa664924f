import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { APPLICATION_STATUSES } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useSession } from '../../auth/hooks/use-session';
import { useAmbassadorDashboard } from '../api/ambassador';

/** /ambassador/dashboard (spec section 2): counts of the users of the ambassador's organisations. */
export function AmbassadorDashboardRoute() {
  const { t } = useTranslation(['ambassador', 'leaseupApplications']);
  usePageTitle(t('dashboard.title'));
  const session = useSession();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const dashboard = useAmbassadorDashboard(session?.user.userId ?? '');
  const d = dashboard.data;
  const cards = d
    ? ([
        ['users', d.users.total],
        ['active', d.users.active],
        ['deactivated', d.users.deactivated],
        ['emailVerified', d.users.emailVerified],
        ['profilesComplete', d.users.profilesComplete],
        ['recertificationsDue', d.recertificationsDue],
        ['accessGranted', d.access.granted],
        ['accessPending', d.access.pending],
        ['organizations', d.organizations],
      ] as const)
    : [];
  const applications = d ? APPLICATION_STATUSES.filter((s) => (d.applications[s] ?? 0) > 0) : [];
  return (
    <div className="page">
      <h1>{t('dashboard.title')}</h1>
      <p>{t('dashboard.welcome', { name: session?.user.firstName ?? '' })}</p>
      {params.get('accessEnded') ? (
        <p className="notice" role="status">
          {t('dashboard.accessEnded')}
        </p>
      ) : null}
      <p className="hero-actions">
        <Link to={paths.ambassador.users.getHref()} className="button button-primary">
          {t('dashboard.usersLink')}
        </Link>
        <Link to={paths.ambassador.organizations.getHref()} className="button button-secondary">
          {t('dashboard.organizationsLink')}
        </Link>
      </p>
      {dashboard.isPending ? (
        <Loading />
      ) : dashboard.isError ? (
        <LoadError title={t('dashboard.loadError')} detail={errorText(dashboard.error)} onRetry={() => void dashboard.refetch()} />
      ) : (
        <>
          <h2>{t('dashboard.countsTitle')}</h2>
          <dl className="count-grid">
            {cards.map(([key, value]) => (
              <div key={key} className="count-card">
                <dt>{t(`dashboard.cards.${key}`)}</dt>
                <dd data-testid={`count-${key}`}>{value}</dd>
              </div>
            ))}
          </dl>
          <h2>{t('dashboard.applicationsTitle')}</h2>
          {applications.length === 0 ? (
            <p>{t('dashboard.noApplications')}</p>
          ) : (
            <dl className="count-grid">
              {applications.map((status) => (
                <div key={status} className="count-card">
                  <dt>{t(`leaseupApplications:status.${status}`)}</dt>
                  <dd>{d!.applications[status]}</dd>
                </div>
              ))}
            </dl>
          )}
        </>
      )}
    </div>
  );
}
