import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WaitlistStanding } from '../../lib/domain';
import { useErrorText } from '../../lib/errors';
import { LoadError } from '../ui/status-message';
import { useMyWaitlist, useMyWaitlistAction } from '../../lib/waitlist-api';
import { StandingFigures } from './standing';

/** "Where I stand" on My Applications: each waitlist place, its answer buttons, and the unit sizes the household declines. */
export function WhereIStand() {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  const standings = useMyWaitlist();
  // Most households are on no waitlist: nothing shows for them, nor while the places load.
  if (standings.isError) return <LoadError title={t('waitlist.loadMineError')} detail={errorText(standings.error)} onRetry={() => void standings.refetch()} />;
  if (!standings.data?.length) return null;
  return (
    <section className="panel" aria-labelledby="where-i-stand" data-testid="where-i-stand">
      <h2 id="where-i-stand">{t('waitlist.whereIStand')}</h2>
      {standings.data.map((s) => (
        <StandingCard key={s.applicationId} standing={s} />
      ))}
    </section>
  );
}

function StandingCard({ standing }: { standing: WaitlistStanding }) {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  const action = useMyWaitlistAction();
  const sizes = useMyWaitlistAction();
  const [declined, setDeclined] = useState<string[]>(standing.declinedBedroomTypes);
  const headingId = `waitlist-${standing.applicationId}`;
  return (
    <article className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{standing.opportunityName}</h3>
      <StandingFigures standing={standing} />
      {action.isError ? (
        <p className="form-error" role="alert">
          {errorText(action.error)}
        </p>
      ) : null}
      {action.isSuccess ? <p role="status">{t('waitlist.saved')}</p> : null}
      {standing.next === 'confirm_now' ? (
        <button type="button" className="button button-primary" disabled={action.isPending} onClick={() => action.mutate({ applicationId: standing.applicationId, action: 'ConfirmInterest' })}>
          {t('waitlist.keep')}
        </button>
      ) : null}
      {standing.next === 'restore_now' ? (
        <button type="button" className="button button-primary" disabled={action.isPending} onClick={() => action.mutate({ applicationId: standing.applicationId, action: 'RestorePlace' })}>
          {t('waitlist.restore')}
        </button>
      ) : null}
      {standing.bedroomTypes.length > 0 && standing.state !== 'removed' ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            sizes.mutate({ applicationId: standing.applicationId, declined });
          }}
        >
          <fieldset>
            <legend>{t('waitlist.declineLegend')}</legend>
            {standing.bedroomTypes.map((size) => (
              <label key={size} className="checkbox">
                <input type="checkbox" checked={declined.includes(size)} onChange={(e) => setDeclined((d) => (e.target.checked ? [...d, size] : d.filter((x) => x !== size)))} /> {size}
              </label>
            ))}
          </fieldset>
          {sizes.isError ? (
            <p className="form-error" role="alert">
              {errorText(sizes.error)}
            </p>
          ) : null}
          {sizes.isSuccess ? <p role="status">{t('waitlist.sizesSaved')}</p> : null}
          <button type="submit" className="button button-secondary" disabled={sizes.isPending}>
            {t('waitlist.saveSizes')}
          </button>
        </form>
      ) : null}
    </article>
  );
}
