import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { BULK_CASE_STATUSES, isMessageCode, type BulkCaseStatus } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useBulkBatch, useBulkResults, useCancelBulkBatch } from '../api/bulk-actions';

/**
 * /manager/bulk/{batchId}: a bulk action's progress (it refreshes itself while the batch runs; the
 * manager may leave and come back) and each application's result: done, refused and why, or skipped.
 */
export function BulkBatchRoute() {
  const { batchId = '' } = useParams();
  const { t } = useTranslation(['managerInbox', 'common']);
  usePageTitle(t('bulk.progressTitle'));
  const errorText = useErrorText();
  const filterId = useId();
  const [status, setStatus] = useState<BulkCaseStatus | undefined>(undefined);
  const batch = useBulkBatch(batchId);
  const results = useBulkResults(batchId, status, batch.data?.status);
  const cancel = useCancelBulkBatch(batchId);

  if (batch.isPending) return <Loading />;
  if (batch.isError) return <LoadError title={t('bulk.loadError')} detail={errorText(batch.error)} onRetry={() => void batch.refetch()} />;
  const b = batch.data;
  const settled = b.counts.done + b.counts.refused + b.counts.skipped;
  const rows = results.data?.pages.flatMap((p) => p.items) ?? [];
  const refusal = (code: string | null) => (code && isMessageCode(code) ? t(`common:errors.${code}`) : (code ?? ''));

  return (
    <div className="page">
      <p>
        <Link to={paths.manager.tasks.getHref()}>{t('bulk.back')}</Link>
      </p>
      <h1>{t('bulk.progressTitle')}</h1>
      <p>
        {t(`bulk.actions.${b.action}`)} · {formatDateTime(b.createdAt)}
      </p>
      <p role="status" aria-live="polite">
        {t(`bulk.status.${b.status}`)}: {t('bulk.progress', { settled, total: b.total })}
      </p>
      <progress max={b.total} value={settled} aria-label={t('bulk.progressLabel')} />
      <ul className="bulk-counts">
        {(['done', 'refused', 'skipped', 'pending'] as const).map((s) => (
          <li key={s}>
            {t(`bulk.outcomes.${s}`)}: {b.counts[s]}
          </li>
        ))}
      </ul>
      {b.status === 'running' ? (
        <button type="button" className="button button-secondary" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
          {t('bulk.cancel')}
        </button>
      ) : null}
      {cancel.isError ? (
        <p className="field-error" role="alert">
          {errorText(cancel.error)}
        </p>
      ) : null}
      <h2>{t('bulk.results')}</h2>
      <div className="field">
        <label htmlFor={filterId}>{t('bulk.show')}</label>
        <select id={filterId} value={status ?? ''} onChange={(e) => setStatus((e.target.value || undefined) as BulkCaseStatus | undefined)}>
          <option value="">{t('bulk.all')}</option>
          {BULK_CASE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`bulk.outcomes.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('bulk.results')}>
        <table>
          <caption className="visually-hidden">{t('bulk.results')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('columns.household')}</th>
              <th scope="col">{t('bulk.logNumber')}</th>
              <th scope="col">{t('bulk.outcome')}</th>
              <th scope="col">{t('bulk.why')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.applicationId}>
                <th scope="row">
                  <Link to={paths.app.application.getHref(r.applicationId)}>{r.applicantName || r.applicationId}</Link>
                </th>
                <td>{r.logNumber ?? ''}</td>
                <td>{t(`bulk.outcomes.${r.status}`)}</td>
                <td>{refusal(r.refusal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {results.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void results.fetchNextPage()} disabled={results.isFetchingNextPage}>
          {t('bulk.more')}
        </button>
      ) : null}
    </div>
  );
}
