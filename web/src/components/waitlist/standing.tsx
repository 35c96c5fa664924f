import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { WaitlistStanding } from '../../lib/domain';
import { formatDate } from '../../lib/format';

/** One lottery's "where I stand": rank, group positions, place among active households, dates, and what happens next in words. */
export function StandingFigures({ standing }: { standing: WaitlistStanding }) {
  const { t } = useTranslation('lottery');
  return (
    <>
      <dl className="facts">
        <dt>{t('waitlist.rank')}</dt>
        <dd>{standing.rank}</dd>
        {Object.entries(standing.groupPositions).map(([group, position]) => (
          <Fragment key={group}>
            <dt>{t('waitlist.groupPosition', { group: t(`groups.${group as 'disability'}`) })}</dt>
            <dd>{position}</dd>
          </Fragment>
        ))}
        <dt>{t('waitlist.activePosition')}</dt>
        <dd>{standing.activePosition === null ? t('waitlist.notActive') : t('waitlist.activeOf', { position: standing.activePosition, total: standing.activeTotal })}</dd>
        <dt>{t('waitlist.state')}</dt>
        <dd>{t(`waitlist.states.${standing.state}`)}</dd>
        <dt>{t('waitlist.lastConfirmed')}</dt>
        <dd>{standing.lastConfirmedAt ? formatDate(standing.lastConfirmedAt) : t('waitlist.never')}</dd>
        {standing.nextDueAt ? (
          <>
            <dt>{standing.checkInOpen ? t('waitlist.answerBy') : t('waitlist.nextCheckIn')}</dt>
            <dd>{formatDate(standing.nextDueAt)}</dd>
          </>
        ) : null}
      </dl>
      <p data-testid="waitlist-next">{t(`waitlist.next.${standing.next}`, { date: formatDate(standing.next === 'restore_now' ? standing.restoreUntil : standing.nextDueAt) })}</p>
    </>
  );
}
