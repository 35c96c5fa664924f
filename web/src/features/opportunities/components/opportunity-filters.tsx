import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { OPPORTUNITY_KINDS, type OpportunityFilter } from '../../../lib/domain-core';

const TYPES = ['all', ...OPPORTUNITY_KINDS] as const;

interface OpportunityFiltersProps {
  value: OpportunityFilter;
  onChange: (next: OpportunityFilter) => void;
}

/** Rental / ownership / all, and a search refined on submit (spec section 2). */
export function OpportunityFilters({ value, onChange }: OpportunityFiltersProps) {
  const { t } = useTranslation('opportunities');
  const searchId = useId();
  const [search, setSearch] = useState(value.search ?? '');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onChange({ type: value.type, search });
  }

  return (
    <form className="filters" role="search" aria-label={t('list.filters')} onSubmit={onSubmit}>
      <fieldset className="radio-group">
        <legend>{t('list.type')}</legend>
        {TYPES.map((type) => (
          <label key={type} className="radio">
            <input
              type="radio"
              name="type"
              value={type}
              checked={value.type === type}
              onChange={() => onChange({ type, search: value.search })}
            />
            {t(`types.${type}`)}
          </label>
        ))}
      </fieldset>
      <div className="field field-inline">
        <label htmlFor={searchId}>{t('list.search')}</label>
        <div className="input-with-button">
          <input id={searchId} type="search" value={search} maxLength={200} onChange={(e) => setSearch(e.target.value)} />
          <button type="submit" className="button button-primary">
            {t('list.searchButton')}
          </button>
        </div>
      </div>
    </form>
  );
}
