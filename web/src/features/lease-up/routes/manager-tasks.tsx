import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { CASE_KINDS, TIMELINE_STEPS, type ManagerTaskFilter } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useManagerTasks } from '../api/get-manager-tasks';
import { useLeaseUpLabels } from '../components/labels';
import { TaskTable } from '../components/task-table';
import { inboxCases } from '../inbox';

/** An inbox is watched, not just visited: it refreshes itself while open. */
const INBOX_REFRESH_MS = 30_000;

/** /manager/tasks: the organisation's open tasks (lease-up, recertification, relocation), overdue first. */
export function ManagerTasksRoute() {
  const { t } = useTranslation('leaseupApplications');
  usePageTitle(t('tasks.title'));
  const errorText = useErrorText();
  const labels = useLeaseUpLabels();
  const ids = { kind: useId(), opportunity: useId(), step: useId(), due: useId() };
  const [filter, setFilter] = useState<ManagerTaskFilter>({});
  const query = useManagerTasks(filter, { refetchInterval: INBOX_REFRESH_MS });
  // Opportunity choices come from the unfiltered inbox so choosing one does not hide the others.
  const all = useManagerTasks({}, { refetchInterval: INBOX_REFRESH_MS });
  const contexts = useMemo(
    () => [...new Map((all.data ?? []).filter((r) => r.contextId).map((r) => [r.contextId!, r.contextName ?? ''])).entries()].sort((a, b) => a[1].localeCompare(b[1])),
    [all.data],
  );
  const rows = useMemo(() => inboxCases(query.data ?? []), [query.data]);
  const set = (patch: Partial<ManagerTaskFilter>) => setFilter((f) => Object.fromEntries(Object.entries({ ...f, ...patch }).filter(([, v]) => v)) as ManagerTaskFilter);

  return (
    <div className="page">
      <h1>{t('tasks.title')}</h1>
      <p>{t('tasks.intro')}</p>
      <form className="filters" aria-label={t('tasks.filters')} onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.kind}>{t('tasks.kind')}</label>
          <select id={ids.kind} value={filter.caseKind ?? ''} onChange={(e) => set({ caseKind: (e.target.value || undefined) as ManagerTaskFilter['caseKind'] })}>
            <option value="">{t('tasks.allKinds')}</option>
            {CASE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`tasks.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.opportunity}>{t('tasks.opportunity')}</label>
          <select id={ids.opportunity} value={filter.contextId ?? ''} onChange={(e) => set({ contextId: e.target.value || undefined })}>
            <option value="">{t('tasks.allOpportunities')}</option>
            {contexts.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.step}>{t('tasks.step')}</label>
          <select id={ids.step} value={filter.step ?? ''} onChange={(e) => set({ step: e.target.value || undefined })}>
            <option value="">{t('tasks.allSteps')}</option>
            {TIMELINE_STEPS.map((step) => (
              <option key={step} value={step}>
                {labels.step(step)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.due}>{t('tasks.dueBefore')}</label>
          <input id={ids.due} type="date" value={filter.dueBefore ?? ''} onChange={(e) => set({ dueBefore: e.target.value || undefined })} />
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
