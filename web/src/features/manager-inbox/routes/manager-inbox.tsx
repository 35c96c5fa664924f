import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { CASE_KINDS, TIMELINE_STEPS, type ManagerTaskFilter } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useManagerTasks } from '../api/get-manager-tasks';
import { useOpportunityChoices } from '../../../lib/opportunity-choices';
import { BulkBar } from '../components/bulk-bar';
import { TaskTable, type CaseSelection } from '../components/task-table';
import { inboxCases } from '../inbox';

/** An inbox is watched, not just visited: it refreshes itself while open. */
const INBOX_REFRESH_MS = 30_000;

/** /manager/tasks: the organisation's open tasks (lease-up, recertification, relocation), overdue first, a page at a time. */
export function ManagerInboxRoute() {
  const { t } = useTranslation(['managerInbox', 'leaseupApplications']);
  usePageTitle(t('title'));
  const errorText = useErrorText();
  const ids = { kind: useId(), opportunity: useId(), step: useId(), due: useId() };
  const [filter, setFilter] = useState<ManagerTaskFilter>({});
  const query = useManagerTasks(filter, { refetchInterval: INBOX_REFRESH_MS });
  const opportunities = useOpportunityChoices();
  // A case's tasks may arrive on different pages; the loaded pages are grouped together.
  const rows = useMemo(() => inboxCases(query.data?.pages.flatMap((p) => p.items) ?? []), [query.data]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const selection: CaseSelection = {
    selected,
    toggle: (caseId, on) => setSelected((prev) => withIds(prev, [caseId], on)),
    toggleAll: (caseIds, on) => setSelected((prev) => withIds(prev, caseIds, on)),
  };
  const set = (patch: Partial<ManagerTaskFilter>) => setFilter((f) => Object.fromEntries(Object.entries({ ...f, ...patch }).filter(([, v]) => v)) as ManagerTaskFilter);

  return (
    <div className="page">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <form className="filters" aria-label={t('filters')} onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.kind}>{t('kind')}</label>
          <select id={ids.kind} value={filter.caseKind ?? ''} onChange={(e) => set({ caseKind: (e.target.value || undefined) as ManagerTaskFilter['caseKind'] })}>
            <option value="">{t('allKinds')}</option>
            {CASE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`kinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.opportunity}>{t('opportunity')}</label>
          <select id={ids.opportunity} value={filter.contextId ?? ''} onChange={(e) => set({ contextId: e.target.value || undefined })}>
            <option value="">{t('allOpportunities')}</option>
            {(opportunities.data ?? []).map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.step}>{t('step')}</label>
          <select id={ids.step} value={filter.step ?? ''} onChange={(e) => set({ step: e.target.value || undefined })}>
            <option value="">{t('allSteps')}</option>
            {TIMELINE_STEPS.map((step) => (
              <option key={step} value={step}>
                {t(`leaseupApplications:steps.${step}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.due}>{t('dueBefore')}</label>
          <input id={ids.due} type="date" value={filter.dueBefore ?? ''} onChange={(e) => set({ dueBefore: e.target.value || undefined })} />
        </div>
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <p className="empty" role="status">
          {t('empty')}
        </p>
      ) : (
        <>
          <BulkBar selected={[...selected]} filter={filter} />
          <TaskTable rows={rows} selection={selection} />
        </>
      )}
      {query.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? t('loadingMore') : t('loadMore')}
        </button>
      ) : null}
    </div>
  );
}

function withIds(prev: ReadonlySet<string>, ids: string[], on: boolean): ReadonlySet<string> {
  const next = new Set(prev);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}
