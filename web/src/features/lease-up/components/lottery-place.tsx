import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { ApplicationDetail } from '../../../lib/domain';

/** Where a lottery application stands: in the lottery, its rank and group positions, or passed over. */
export function LotteryPlace({ application }: { application: ApplicationDetail }) {
  const { t } = useTranslation(['leaseupApplications', 'lottery']);
  const place = application.lottery;
  if (!place) return null;
  return (
    <section className="panel" data-testid="lottery-place">
      <h2>{t('lotteryPlace.title')}</h2>
      {place.rank === null ? <p>{t('lotteryPlace.inLottery')}</p> : <p>{t('lotteryPlace.rank', { rank: place.rank })}</p>}
      {Object.entries(place.groupPositions ?? {}).map(([group, position]) => (
        <p key={group}>{t('lotteryPlace.group', { group: t(`lottery:groups.${group as 'disability'}`), position })}</p>
      ))}
      {place.skipReason ? <p>{t('lotteryPlace.skipped')}</p> : null}
      {place.rank !== null ? (
        <p>
          <Link to={paths.public.lotteryResults.getHref(application.opportunityId)}>{t('lotteryPlace.results')}</Link>
        </p>
      ) : null}
    </section>
  );
}
