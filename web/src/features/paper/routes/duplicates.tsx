import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import type { DuplicatePairRow } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useDuplicatePairs, useResolveDuplicate } from '../api/paper';

/** /manager/opportunities/:id/lottery/duplicates: each possible duplicate, decided with a reason (kept in the audit). */
export function DuplicatesRoute() {
  const { t } = useTranslation('lottery');
  usePageTitle(t('duplicates.title'));
  const { id = '' } = useParams();
  const errorText = useErrorText();
  const pairs = useDuplicatePairs(id);
  const items = pairs.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="page">
      <p>
        <Link className="back-link" to={paths.manager.lottery.getHref(id)}>
          ← {t('paper.back')}
        </Link>
      </p>
      <h1>{t('duplicates.title')}</h1>
      <p>{t('duplicates.intro')}</p>
      {pairs.isPending ? (
        <Loading />
      ) : pairs.isError ? (
        <LoadError title={t('duplicates.title')} detail={errorText(pairs.error)} onRetry={() => void pairs.refetch()} />
      ) : items.length === 0 ? (
        <p>{t('duplicates.none')}</p>
      ) : (
        <ul className="card-list">
          {items.map((pair) => (
            <li key={pair.id}>
              <PairCard opportunityId={id} pair={pair} />
            </li>
          ))}
        </ul>
      )}
      {pairs.hasNextPage ? (
        <button type="button" className="button button-secondary" disabled={pairs.isFetchingNextPage} onClick={() => void pairs.fetchNextPage()}>
          {t('duplicates.more')}
        </button>
      ) : null}
    </div>
  );
}

function PairCard({ opportunityId, pair }: { opportunityId: string; pair: DuplicatePairRow }) {
  const { t } = useTranslation('lottery');
  const id = useId();
  const toast = useToast();
  const errorText = useErrorText();
  const resolve = useResolveDuplicate(opportunityId);
  const [keep, setKeep] = useState('');
  const describe = (a: DuplicatePairRow['first']) => t('duplicates.application', { logNumber: a.logNumber ?? a.applicationId, channel: t(`duplicates.channel.${a.channel}`), date: formatDate(a.appliedAt) });
  const title = t('duplicates.pair', { first: pair.first.logNumber ?? '', second: pair.second.logNumber ?? '' });
  if (pair.decidedAt) {
    const kept = pair.keptApplicationId === pair.first.applicationId ? pair.first : pair.second;
    return (
      <section className="panel" aria-label={title}>
        <h2>{title}</h2>
        <p>{t('duplicates.decided', { logNumber: kept.logNumber ?? '', reason: pair.reason ?? '' })}</p>
      </section>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
    resolve.mutate({ pairId: pair.id, keep, reason }, { onSuccess: () => toast.showSuccess(t('manage.done.ResolveDuplicate')), onError: (e) => toast.showError(errorText(e)) });
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="duplicate-pair">
      <h2 id={`${id}-title`}>{title}</h2>
      <form className="form" onSubmit={submit}>
        <fieldset className="radio-group">
          <legend>{t('duplicates.keep')}</legend>
          {[pair.first, pair.second].map((a) => (
            <label key={a.applicationId} className="radio">
              <input type="radio" name="keep" value={a.applicationId} required checked={keep === a.applicationId} onChange={() => setKeep(a.applicationId)} /> {describe(a)}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('duplicates.reason')}</label>
          <input id={`${id}-reason`} name="reason" required maxLength={2000} />
        </div>
        <button type="submit" className="button button-primary" disabled={resolve.isPending || !keep}>
          {t('duplicates.decide')}
        </button>
      </form>
    </section>
  );
}
