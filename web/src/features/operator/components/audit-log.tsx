import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useErrorText } from '../../../lib/validation-text';
import { formatDateTime } from '../../../lib/format';
import { useAuditLog } from '../api/operator';

/** The operator audit log, newest first: everyone's, or one case's. */
export function OperatorAuditLog({ workflowId, headingId }: { workflowId?: string; headingId: string }) {
  const { t } = useTranslation('operator');
  const errorText = useErrorText();
  const log = useAuditLog(workflowId);
  const rows = log.data?.pages.flatMap((p) => p.items) ?? [];
  const caption = workflowId ? t('case.auditHeading') : t('audit.heading');
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{caption}</h2>
      {log.isPending ? (
        <Loading />
      ) : log.isError ? (
        <LoadError title={t('loadError')} detail={errorText(log.error)} onRetry={() => void log.refetch()} />
      ) : rows.length === 0 ? (
        <p role="status">{t('audit.empty')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
          <table>
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t('columns.when')}</th>
                <th scope="col">{t('columns.who')}</th>
                {workflowId ? null : <th scope="col">{t('columns.case')}</th>}
                <th scope="col">{t('columns.action')}</th>
                <th scope="col">{t('columns.reason')}</th>
                <th scope="col">{t('columns.detail')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>{formatDateTime(e.at)}</td>
                  <td>{e.actorUsername}</td>
                  {workflowId ? null : <td>{e.workflowId}</td>}
                  <th scope="row">{t(`audit.actions.${e.action}`)}</th>
                  <td>{e.reason}</td>
                  <td>{Object.entries(e.detail).map(([k, v]) => `${k}: ${String(v)}`).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {t('more')}
        </button>
      ) : null}
    </section>
  );
}
