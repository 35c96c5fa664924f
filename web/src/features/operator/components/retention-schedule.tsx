import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { formatDateTime } from '../../../lib/format';
import { useErrorText } from '../../../lib/validation-text';
import { useRetentionSchedule } from '../api/operator';

/** When the retention sweep (personal data of long-closed applications removed) last ran and runs next. */
export function RetentionSchedule({ headingId }: { headingId: string }) {
  const { t } = useTranslation('operator');
  const errorText = useErrorText();
  const schedule = useRetentionSchedule();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('retention.heading')}</h2>
      <p>{t('retention.intro')}</p>
      {schedule.isPending ? (
        <Loading />
      ) : schedule.isError ? (
        <LoadError title={t('loadError')} detail={errorText(schedule.error)} onRetry={() => void schedule.refetch()} />
      ) : !schedule.data.exists ? (
        <p role="status">{t('retention.missing')}</p>
      ) : (
        <dl>
          <dt>{t('retention.lastRun')}</dt>
          <dd>{schedule.data.lastRunAt ? formatDateTime(schedule.data.lastRunAt) : t('retention.never')}</dd>
          <dt>{t('retention.nextRun')}</dt>
          <dd>{schedule.data.paused ? t('retention.paused') : schedule.data.nextRunAt ? formatDateTime(schedule.data.nextRunAt) : t('retention.never')}</dd>
        </dl>
      )}
    </section>
  );
}
