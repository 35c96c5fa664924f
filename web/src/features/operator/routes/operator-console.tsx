import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { STUCK_REASONS, type StuckReason } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { useCaseSearch, useStuckCases, useUndeliveredNotices, type CaseSearch } from '../api/operator';
import { UndeliveredNotices } from '../../../components/undelivered-notices';
import { OperatorAuditLog } from '../components/audit-log';
import { CaseTable } from '../components/case-table';
import { RetentionSchedule } from '../components/retention-schedule';

type SearchBy = 'logNumber' | 'email' | 'householdId';
const SEARCH_BY: SearchBy[] = ['logNumber', 'email', 'householdId'];

/** /operator: find cases across kinds, list stuck ones, read the audit log. Admins only. */
export function OperatorConsoleRoute() {
  const { t } = useTranslation('operator');
  usePageTitle(t('title'));
  const errorText = useErrorText();
  const ids = { by: useId(), value: useId(), reason: useId(), days: useId(), search: useId(), stuck: useId(), audit: useId(), undelivered: useId(), retention: useId() };
  const [by, setBy] = useState<SearchBy>('logNumber');
  const [value, setValue] = useState('');
  const [search, setSearch] = useState<CaseSearch | null>(null);
  const found = useCaseSearch(search);
  const [stuckDraft, setStuckDraft] = useState<{ reason: StuckReason; days: number }>({ reason: 'overdue', days: 14 });
  const [stuckParams, setStuckParams] = useState(stuckDraft);
  const stuck = useStuckCases(stuckParams.reason, stuckParams.days);
  const stuckRows = stuck.data?.pages.flatMap((p) => p.items) ?? [];
  const undelivered = useUndeliveredNotices();

  return (
    <div className="page">
      <h1>{t('title')}</h1>
      <section aria-labelledby={ids.search}>
        <h2 id={ids.search}>{t('search.heading')}</h2>
        <form
          className="filters"
          role="search"
          aria-labelledby={ids.search}
          onSubmit={(e) => {
            e.preventDefault();
            const v = value.trim();
            if (v) setSearch({ [by]: v } as CaseSearch);
          }}
        >
          <div className="field">
            <label htmlFor={ids.by}>{t('search.by')}</label>
            <select id={ids.by} value={by} onChange={(e) => setBy(e.target.value as SearchBy)}>
              {SEARCH_BY.map((b) => (
                <option key={b} value={b}>
                  {t(`search.${b}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.value}>{t('search.value')}</label>
            <input id={ids.value} type="search" maxLength={254} value={value} onChange={(e) => setValue(e.target.value)} />
          </div>
          <button type="submit" className="button button-primary">
            {t('search.submit')}
          </button>
        </form>
        {search === null ? null : found.isPending ? (
          <Loading />
        ) : found.isError ? (
          <LoadError title={t('loadError')} detail={errorText(found.error)} onRetry={() => void found.refetch()} />
        ) : found.data.length === 0 ? (
          <p role="status">{t('search.empty')}</p>
        ) : (
          <CaseTable rows={found.data} caption={t('search.results')} />
        )}
      </section>

      <section aria-labelledby={ids.stuck}>
        <h2 id={ids.stuck}>{t('stuck.heading')}</h2>
        <form
          className="filters"
          aria-labelledby={ids.stuck}
          onSubmit={(e) => {
            e.preventDefault();
            setStuckParams(stuckDraft);
          }}
        >
          <div className="field">
            <label htmlFor={ids.reason}>{t('stuck.reason')}</label>
            <select id={ids.reason} value={stuckDraft.reason} onChange={(e) => setStuckDraft({ ...stuckDraft, reason: e.target.value as StuckReason })}>
              {STUCK_REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`stuck.reasons.${r}`)}
                </option>
              ))}
            </select>
          </div>
          {stuckDraft.reason === 'idle' ? (
            <div className="field">
              <label htmlFor={ids.days}>{t('stuck.days')}</label>
              <input id={ids.days} type="number" min={1} max={365} value={stuckDraft.days} onChange={(e) => setStuckDraft({ ...stuckDraft, days: Math.min(365, Math.max(1, Number(e.target.value) || 1)) })} />
            </div>
          ) : null}
          <button type="submit" className="button button-primary">
            {t('stuck.submit')}
          </button>
        </form>
        {stuck.isPending ? (
          <Loading />
        ) : stuck.isError ? (
          <LoadError title={t('loadError')} detail={errorText(stuck.error)} onRetry={() => void stuck.refetch()} />
        ) : stuckRows.length === 0 ? (
          <p role="status">{t('stuck.empty')}</p>
        ) : (
          <CaseTable rows={stuckRows} caption={t(`stuck.reasons.${stuckParams.reason}`)} showFailing={stuckParams.reason === 'failing'} />
        )}
        {stuck.hasNextPage ? (
          <button type="button" className="button button-secondary" onClick={() => void stuck.fetchNextPage()} disabled={stuck.isFetchingNextPage}>
            {t('more')}
          </button>
        ) : null}
      </section>

      <section aria-labelledby={ids.undelivered}>
        <h2 id={ids.undelivered}>{t('undelivered.heading')}</h2>
        {undelivered.isPending ? (
          <Loading />
        ) : undelivered.isError ? (
          <LoadError title={t('undelivered.heading')} detail={errorText(undelivered.error)} onRetry={() => void undelivered.refetch()} />
        ) : (
          <UndeliveredNotices notices={undelivered.data.items} caseLabel={(caseKey) => t('undelivered.case', { caseKey })} />
        )}
      </section>

      <RetentionSchedule headingId={ids.retention} />

      <OperatorAuditLog headingId={ids.audit} />
    </div>
  );
}
