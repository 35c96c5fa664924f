import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { localeTag } from '../../../i18n';
import { useErrorText } from '../../../lib/errors';
import { useInvitationLog } from '../api/get-invitation-log';

/**
 * The invitation log: every invitation and pass-over in order, by log number and rank with its
 * reason in words, never a name; and the published head its lines hash to, for anyone checking it.
 */
export function InvitationLog({ opportunityId }: { opportunityId: string }) {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  // Cursors of the pages walked so far: the last is the page shown (0 = from the first line).
  const [cursors, setCursors] = useState<number[]>([0]);
  const query = useInvitationLog(opportunityId, cursors.at(-1) ?? 0);
  const count = (n: number) => new Intl.NumberFormat(localeTag()).format(n);
  const date = (iso: string) => new Intl.DateTimeFormat(localeTag(), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError title={t('log.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />;
  const page = query.data;
  const hasPrevious = cursors.length > 1;
  const busy = query.isFetching;
  return (
    <section aria-labelledby="invitation-log-heading" className="panel" aria-busy={busy}>
      <h2 id="invitation-log-heading">{t('log.title')}</h2>
      <p>{t('log.intro')}</p>
      <dl>
        <dt>{t('log.length')}</dt>
        <dd>{count(page.length)}</dd>
        <dt>{t('log.head')}</dt>
        <dd>
          <code className="hex-value">{page.head ?? t('draw.none')}</code>
        </dd>
      </dl>
      {page.items.length === 0 ? (
        <p>{t('log.empty')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('log.title')}>
          <table>
            <caption>{t('log.range', { first: count(page.items[0]!.seq), last: count(page.items.at(-1)!.seq) })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('log.seq')}</th>
                <th scope="col">{t('log.logNumber')}</th>
                <th scope="col">{t('log.rank')}</th>
                <th scope="col">{t('log.event')}</th>
                <th scope="col">{t('log.reason')}</th>
                <th scope="col">{t('log.date')}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((line) => (
                <tr key={line.seq}>
                  <td>{count(line.seq)}</td>
                  <th scope="row">{line.logNumber}</th>
                  <td>{count(line.rank)}</td>
                  <td>{t(`log.events.${line.event}`)}</td>
                  <td>
                    {t(`log.reasons.${line.reason}`)}
                    {line.unitSizes.length > 0 ? ` (${line.unitSizes.join(', ')})` : ''}
                  </td>
                  <td>{date(line.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* aria-disabled, not disabled: the focused button keeps focus while a page loads and at either end. */}
      <nav aria-label={t('log.pages')} className="action-buttons">
        <button type="button" className="button button-secondary" aria-disabled={!hasPrevious || busy} onClick={() => hasPrevious && !busy && setCursors((c) => c.slice(0, -1))}>
          {t('log.previous')}
        </button>
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={page.nextAfter === null || busy}
          onClick={() => page.nextAfter !== null && !busy && setCursors((c) => [...c, page.nextAfter!])}
        >
          {t('log.next')}
        </button>
      </nav>
    </section>
  );
}
