import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { ApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { openLetter, useMarkLetter, usePrintQueue } from '../api/paper';

/** /manager/print-queue: letters to households without an account, to print and mail, with what was sent when. */
export function PrintQueueRoute() {
  const { t } = useTranslation('lottery');
  usePageTitle(t('printQueue.title'));
  const toast = useToast();
  const errorText = useErrorText();
  const [showAll, setShowAll] = useState(false);
  const queue = usePrintQueue(showAll ? 'all' : 'to_mail');
  const mark = useMarkLetter();
  const items = queue.data?.pages.flatMap((p) => p.items) ?? [];
  const act = (id: string, kind: 'printed' | 'mailed') => mark.mutate({ id, mark: kind }, { onError: (e) => toast.showError(errorText(e)) });
  return (
    <div className="page">
      <h1>{t('printQueue.title')}</h1>
      <p>{t('printQueue.intro')}</p>
      <p className="field field-checkbox">
        <input id="print-queue-all" type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.currentTarget.checked)} />
        <label htmlFor="print-queue-all">{t('printQueue.showAll')}</label>
      </p>
      {queue.isPending ? (
        <Loading />
      ) : queue.isError ? (
        <LoadError title={t('printQueue.title')} detail={errorText(queue.error)} onRetry={() => void queue.refetch()} />
      ) : items.length === 0 ? (
        <p>{t('printQueue.none')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('printQueue.title')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('printQueue.letter')}</th>
                <th scope="col">{t('printQueue.logNumber')}</th>
                <th scope="col">{t('printQueue.language')}</th>
                <th scope="col">{t('printQueue.queued')}</th>
                <th scope="col">{t('printQueue.printed')}</th>
                <th scope="col">{t('printQueue.mailed')}</th>
                <th scope="col">{t('printQueue.open')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((l) => (
                <tr key={l.id} data-testid="print-queue-row">
                  <td>{t(`printQueue.kind.${l.letter as 'paper-received'}`, { defaultValue: l.letter })}</td>
                  <td>{l.logNumber ?? '—'}</td>
                  <td>{t(`printQueue.languages.${l.language as 'en'}`, { defaultValue: l.language })}</td>
                  <td>{formatDateTime(l.queuedAt)}</td>
                  <td>
                    {l.printedAt ? formatDateTime(l.printedAt) : (
                      <button type="button" className="button button-secondary" disabled={mark.isPending} onClick={() => act(l.id, 'printed')}>
                        {t('printQueue.markPrinted')}
                      </button>
                    )}
                  </td>
                  <td>
                    {l.mailedAt ? formatDateTime(l.mailedAt) : (
                      <button type="button" className="button button-secondary" disabled={mark.isPending} onClick={() => act(l.id, 'mailed')}>
                        {t('printQueue.markMailed')}
                      </button>
                    )}
                  </td>
                  <td>
                    <button type="button" className="button button-secondary" onClick={() => void openLetter(l.id).catch((error: unknown) => toast.showError(error instanceof ApiError ? errorText(error) : t('printQueue.openFailed')))}>
                      {t('printQueue.open')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {queue.hasNextPage ? (
        <button type="button" className="button button-secondary" disabled={queue.isFetchingNextPage} onClick={() => void queue.fetchNextPage()}>
          {t('printQueue.more')}
        </button>
      ) : null}
    </div>
  );
}
