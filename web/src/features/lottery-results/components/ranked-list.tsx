import { useTranslation } from 'react-i18next';
import type { LotteryRanksPage } from '../../../lib/domain';
import { localeTag } from '../../../i18n';

interface RankedListProps {
  page: LotteryRanksPage;
  /** Whether there is a page before this one (the cursors walked so far are kept by the page). */
  hasPrevious: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: (after: number) => void;
}

/** The ranked list by cursor: log numbers and ranks only, never names. */
export function RankedList({ page, hasPrevious, busy, onPrevious, onNext }: RankedListProps) {
  const { t } = useTranslation('lottery');
  const count = (n: number) => new Intl.NumberFormat(localeTag()).format(n);
  const first = page.items[0]?.rank;
  const last = page.items.at(-1)?.rank;
  return (
    <section aria-labelledby="ranks-heading" className="panel" aria-busy={busy}>
      <h2 id="ranks-heading">{t('ranks.title')}</h2>
      {page.items.length === 0 ? (
        <p>{t('ranks.empty')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('ranks.title')}>
          <table>
            <caption>{t('ranks.range', { first: count(first ?? 0), last: count(last ?? 0) })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ranks.rank')}</th>
                <th scope="col">{t('ranks.logNumber')}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((item) => (
                <tr key={item.logNumber}>
                  <td>{count(item.rank)}</td>
                  <th scope="row">{item.logNumber}</th>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* aria-disabled, not disabled: the focused button keeps focus while a page loads and at either end. */}
      <nav aria-label={t('ranks.pages')} className="action-buttons">
        <button type="button" className="button button-secondary" aria-disabled={!hasPrevious || busy} onClick={() => hasPrevious && !busy && onPrevious()}>
          {t('ranks.previous')}
        </button>
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={page.nextAfter === null || busy}
          onClick={() => page.nextAfter !== null && !busy && onNext(page.nextAfter)}
        >
          {t('ranks.next')}
        </button>
      </nav>
    </section>
  );
}
