import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { TIMELINE_STEPS, type TimelineStep } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useApplications } from '../api/get-applications';
import { useLeaseUpLabels } from '../components/labels';
import { TaskTable } from '../components/task-table';
import { inboxRows, type InboxFilter } from '../inbox';

/** An inbox is watched, not just visited: it refreshes itself while open. */
const INBOX_REFRESH_MS = 30_000;

/** /manager/tasks: the organisation's applications, those waiting on the manager first. */
export function ManagerTasksRoute() {
  const { t } = useTranslation('leaseupApplications');
  usePageTitle(t('tasks.title'));
  const errorText = useErrorText();
  const labels = useLeaseUpLabels();
  const ids = { opportunity: useId(), step: useId() };
  const [filter, setFilter] = useState<InboxFilter>({ opportunityName: '', step: '' });
  const query = useApplications('', { refetchInterval: INBOX_REFRESH_MS });

  const opportunityNames = useMemo(
    () => [...new Set((query.data ?? []).map((row) => row.opportunityName))].sort((a, b) => a.localeCompare(b)),
    [query.data],
  );
  const rows = useMemo(() => inboxRows(query.data ?? [], filter), [query.data, filter]);

  return (
    <div className="page">
      <h1>{t('tasks.title')}</h1>
      <p>{t('tasks.intro')}</p>
      <form className="filters" aria-label={t('tasks.filters')} onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.opportunity}>{t('tasks.opportunity')}</label>
          <select
            id={ids.opportunity}
            value={filter.opportunityName}
            onChange={(e) => setFilter({ ...filter, opportunityName: e.target.value })}
          >
            <option value="">{t('tasks.allOpportunities')}</option>
            {opportunityNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.step}>{t('tasks.step')}</label>
          <select
            id={ids.step}
            value={filter.step}
            onChange={(e) => setFilter({ ...filter, step: e.target.value as TimelineStep | '' })}
          >
            <option value="">{t('tasks.allSteps')}</option>
            {TIMELINE_STEPS.map((step) => (
              <option key={step} value={step}>
                {labels.step(step)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('tasks.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <p className="empty" role="status">
          {t('tasks.empty')}
        </p>
      ) : (
        <TaskTable rows={rows} />
      )}
    </div>
  );
}
