import { useTranslation } from 'react-i18next';
import { ACCESSIBILITY_TAGS, UNIT_SIZES } from '../../../../../domain/household';
import { LISTING_AREAS, ALERT_FREQUENCIES, ALERT_LANGUAGES, type AlertCriteriaInput, type AlertFrequency, type AlertLanguage } from '../../../../../domain/listing-alerts';
import { LOTTERY_GROUPS } from '../../../../../domain/lottery';
import { OPPORTUNITY_KINDS } from '../../../../../domain/opportunity-filter';

/** What every alert form asks (criteria, frequency, language), for the signed-in and the public form. */
export interface AlertFormValues {
  criteria: AlertCriteriaInput;
  frequency: AlertFrequency;
  language: AlertLanguage;
}

const toggle = <T,>(list: readonly T[] | undefined, value: T, on: boolean): T[] => (on ? [...(list ?? []), value] : (list ?? []).filter((v) => v !== value));

function Checks<T extends string>({ legend, name, options, chosen, label, onChange }: { legend: string; name: string; options: readonly T[]; chosen: readonly T[] | undefined; label: (v: T) => string; onChange: (next: T[]) => void }) {
  return (
    <fieldset className="field-group">
      <legend>{legend}</legend>
      {options.map((value) => (
        <label key={value} className="field-checkbox">
          <input type="checkbox" name={name} value={value} checked={chosen?.includes(value) ?? false} onChange={(e) => onChange(toggle(chosen, value, e.currentTarget.checked))} />
          {label(value)}
        </label>
      ))}
    </fieldset>
  );
}

export function AlertCriteriaFields({ values, onChange, signedIn }: { values: AlertFormValues; onChange: (next: AlertFormValues) => void; signedIn: boolean }) {
  const { t } = useTranslation('alerts');
  const c = values.criteria;
  const set = (patch: Partial<AlertCriteriaInput>) => onChange({ ...values, criteria: { ...c, ...patch } });
  const number = (v: string) => (v.trim() === '' ? null : Number(v));
  return (
    <>
      <div className="field">
        <label htmlFor="alert-tenure">{t('form.tenure')}</label>
        <select id="alert-tenure" value={c.tenure ?? ''} onChange={(e) => set({ tenure: (e.currentTarget.value || null) as AlertCriteriaInput['tenure'] })}>
          <option value="">{t('form.any')}</option>
          {OPPORTUNITY_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`tenure.${k}`)}
            </option>
          ))}
        </select>
      </div>
      <Checks legend={t('form.bedrooms')} name="bedroomTypes" options={UNIT_SIZES} chosen={c.bedroomTypes} label={(v) => t(`size.${v}`)} onChange={(bedroomTypes) => set({ bedroomTypes })} />
      <Checks legend={t('form.areas')} name="areas" options={LISTING_AREAS} chosen={c.areas} label={(v) => t(`area.${v}`)} onChange={(areas) => set({ areas })} />
      <Checks legend={t('form.accessibility')} name="accessibility" options={ACCESSIBILITY_TAGS} chosen={c.accessibility} label={(v) => t(`accessibility.${v}`)} onChange={(accessibility) => set({ accessibility })} />
      <Checks legend={t('form.setAsides')} name="setAsideGroups" options={LOTTERY_GROUPS} chosen={c.setAsideGroups} label={(v) => t(`group.${v}`)} onChange={(setAsideGroups) => set({ setAsideGroups })} />
      {signedIn ? (
        <label className="field-checkbox">
          <input type="checkbox" checked={c.useProfile ?? false} onChange={(e) => set({ useProfile: e.currentTarget.checked })} />
          {t('form.useProfile')}
        </label>
      ) : null}
      {!c.useProfile ? (
        <>
          <div className="field">
            <label htmlFor="alert-size">{t('form.householdSize')}</label>
            <input id="alert-size" type="number" inputMode="numeric" min={1} max={20} value={String(c.householdSize ?? '')} onChange={(e) => set({ householdSize: number(e.currentTarget.value) })} />
          </div>
          <div className="field">
            <label htmlFor="alert-income">{t('form.yearlyIncome')}</label>
            <input id="alert-income" type="number" inputMode="numeric" min={0} value={String(c.yearlyIncome ?? '')} onChange={(e) => set({ yearlyIncome: number(e.currentTarget.value) })} />
          </div>
        </>
      ) : null}
      <fieldset className="radio-group">
        <legend>{t('form.frequency')}</legend>
        {ALERT_FREQUENCIES.map((f) => (
          <label key={f} className="radio">
            <input type="radio" name="frequency" value={f} checked={values.frequency === f} onChange={() => onChange({ ...values, frequency: f })} />
            {t(`frequency.${f}`)}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="alert-language">{t('form.language')}</label>
        <select id="alert-language" value={values.language} onChange={(e) => onChange({ ...values, language: e.currentTarget.value as AlertLanguage })}>
          {ALERT_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`language.${l}`)}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
