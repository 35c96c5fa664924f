import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { paths } from '../../../config/paths';
import { useDashboardData } from '../api/get-dashboard-data';
import { useWeatherPoint } from '../hooks/use-weather-point';
import { FeedCards } from './feed-cards';

/** The resident's dashboard (spec section 2): work to do first, then the outside world. */
export function ResidentDashboard() {
  const { t } = useTranslation('dashboard');
  const location = useWeatherPoint();
  const data = useDashboardData(true, location.point);
  if (data.isPending) return <Loading />;
  // Spec section 8: a failed load reads 'Failed to load dashboard data'.
  if (data.isError) return <LoadError title={t('loadFailed')} detail={t('loadFailed')} onRetry={() => void data.refetch()} />;
  const d = data.data;
  const recert = d.recertificationStatus;
  return (
    <>
      <section className="panel" aria-labelledby="action-needed">
        <h2 id="action-needed">{t('actionNeeded.title')}</h2>
        {/* The dashboard's own data lists the work (getActionItems answers 404 when there is none). */}
        {d.actionNeeded.length > 0 ? (
          <ul data-testid="action-items">
            {d.actionNeeded.map((item) => (
              <li key={`${item.kind}-${item.caseId}-${item.action}`}>
                <Link to={item.path}>{t(`actionNeeded.${item.kind}`, { action: t(`actionNames.${item.action}` as 'actionNames.ConfirmProfile', { defaultValue: item.action }), name: item.name ?? '' })}</Link>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('actionNeeded.nothing')}</p>
        )}
      </section>
      {recert ? (
        <section className="panel" aria-labelledby="recert-status">
          <h2 id="recert-status">{t('recertification.title')}</h2>
          <p data-testid="dashboard-recertification-stage">{t(`recertification.stage.${recert.stage}`)}</p>
          {recert.status === 'expired' ? <p className="notice">{t('recertification.expired')}</p> : null}
          {recert.status === 'completed' ? <p className="notice notice-success">{t('recertification.approved')}</p> : null}
          {recert.status === 'active' ? <p>{t('recertification.daysRemaining', { count: recert.daysRemaining })}</p> : null}
          <Link to={paths.app.recertification.getHref()} className="button button-primary">
            {t('recertification.open')}
          </Link>
        </section>
      ) : null}
      {d.relocation ? (
        <section className="panel">
          <h2>{t('relocation.title')}</h2>
          <p>{t(`relocation.status.${d.relocation.status}`)}</p>
          <Link to={paths.app.relocation.getHref()}>{t('relocation.open')}</Link>
        </section>
      ) : null}
      {d.announcement ? (
        <section className="panel">
          <h2>{t('announcement.title')}</h2>
          <p>{t(`announcement.${d.announcement.key}` as 'announcement.recertificationOpen')}</p>
        </section>
      ) : null}
      <section className="panel">
        <h2>{t('aboutTitle')}</h2>
        <p>{t('about')}</p>
        <p>{t('profileCompletion', { percent: d.profileCompletion })}</p>
      </section>
      <section className="panel">
        <h2>{t('howToVideo.title')}</h2>
        <p>{t('howToVideo.body')}</p>
        <p className="hero-actions">
          <Link to={paths.playVideo.getHref()} className="button button-primary">
            {t('howToVideo.watch')}
          </Link>
          <Link to={paths.app.training.getHref()}>{t('howToVideo.link')}</Link>
        </p>
      </section>
      <FeedCards feeds={d.feeds} location={location} />
    </>
  );
}
