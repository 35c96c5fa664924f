import { useTranslation } from 'react-i18next';

/** Spec section 9: the lottery countdown is shown in days; negative means closed. */
export function LotteryCountdown({ daysRemaining }: { daysRemaining: number }) {
  const { t } = useTranslation('opportunities');
  if (daysRemaining < 0) return <span className="badge badge-closed">{t('countdown.closed')}</span>;
  if (daysRemaining === 0) return <span className="badge badge-urgent">{t('countdown.endsToday')}</span>;
  return (
    <span className={`badge ${daysRemaining <= 7 ? 'badge-urgent' : 'badge-open'}`}>
      {t('countdown.daysLeft', { count: daysRemaining })}
    </span>
  );
}
