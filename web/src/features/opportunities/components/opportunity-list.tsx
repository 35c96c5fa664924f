import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { OpportunitySummary } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import { LotteryCountdown } from './lottery-countdown';

interface OpportunityListProps {
  opportunities: OpportunitySummary[];
  detailHref: (id: string) => string;
}

export function OpportunityList({ opportunities, detailHref }: OpportunityListProps) {
  const { t } = useTranslation('opportunities');
  if (opportunities.length === 0) {
    return (
      <div className="empty" role="status">
        <p className="empty-title">{t('list.emptyTitle')}</p>
        <p>{t('list.emptyHint')}</p>
      </div>
    );
  }
  return (
    <>
      <p role="status">{t('list.count', { count: opportunities.length })}</p>
      <ul className="card-list">
        {opportunities.map((opportunity) => (
          <li key={opportunity.id} className="card">
            <h2 className="card-title">
              <Link to={detailHref(opportunity.id)}>{opportunity.name}</Link>
            </h2>
            <p className="card-meta">
              <span className="badge badge-kind">{t(`types.${opportunity.kind}`)}</span>
              <LotteryCountdown daysRemaining={opportunity.daysRemaining} />
              {opportunity.isFavorite ? <span className="badge"> ★ {t('favorites.badge')}</span> : null}
            </p>
            <p>{opportunity.address}</p>
            <p className="muted">{t('list.units', { count: opportunity.unitCount })}</p>
            <p className="muted">{t('list.lotteryEndsOn', { date: formatDate(opportunity.lotteryEndDate) })}</p>
            <Link to={detailHref(opportunity.id)} className="button button-secondary" aria-label={t('list.viewDetailsOf', { name: opportunity.name })}>
              {t('list.viewDetails')}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
