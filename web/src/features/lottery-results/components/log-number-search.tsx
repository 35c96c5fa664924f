import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LotteryResultsQuery } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { localeTag } from '../../../i18n';
import { useLotteryPlace } from '../api/find-lottery-place';
import { groupName } from './group-name';

/** Find one log number's rank and its position in each preference group. */
export function LogNumberSearch({ opportunityId }: { opportunityId: string }) {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  const inputId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState('');
  const [logNumber, setLogNumber] = useState('');
  const [invalid, setInvalid] = useState(false);
  const place = useLotteryPlace(opportunityId, logNumber);
  const count = (n: number) => new Intl.NumberFormat(localeTag()).format(n);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The same rule the API applies, from the shared schema.
    const parsed = LotteryResultsQuery.shape.logNumber.safeParse(draft);
    setInvalid(!parsed.success || !parsed.data);
    if (parsed.success && parsed.data) setLogNumber(parsed.data);
  };

  return (
    <section aria-labelledby="search-heading" className="panel">
      <h2 id="search-heading">{t('search.title')}</h2>
      <form className="filters" role="search" onSubmit={onSubmit} noValidate>
        <div className="field field-inline">
          <label htmlFor={inputId}>{t('search.label')}</label>
          <div className="input-with-button">
            <input
              id={inputId}
              type="search"
              value={draft}
              maxLength={40}
              autoComplete="off"
              placeholder="LU-000123"
              aria-invalid={invalid}
              aria-describedby={invalid ? errorId : undefined}
              onChange={(e) => setDraft(e.target.value)}
            />
            <button type="submit" className="button button-primary">
              {t('search.button')}
            </button>
          </div>
          {invalid ? (
            <p id={errorId} className="form-error">
              {t('search.invalid')}
            </p>
          ) : null}
        </div>
      </form>
      <div aria-live="polite">
        {logNumber === '' || invalid ? null : place.isPending ? (
          <p className="loading">{t('search.searching')}</p>
        ) : place.isError ? (
          <p className="form-error">{errorText(place.error)}</p>
        ) : place.data === null ? (
          <p>{t('search.notFound', { logNumber })}</p>
        ) : (
          <div>
            <p>
              <strong>{t('search.rank', { logNumber: place.data.logNumber, rank: count(place.data.rank) })}</strong>
            </p>
            {Object.keys(place.data.groupPositions).length ? (
              <ul>
                {Object.entries(place.data.groupPositions).map(([group, position]) => (
                  <li key={group}>{t('search.groupPosition', { group: groupName(t, group), position: count(position) })}</li>
                ))}
              </ul>
            ) : (
              <p>{t('search.noGroups')}</p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
