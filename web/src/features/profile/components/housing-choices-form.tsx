import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { ACCESSIBILITY_TAGS, AdditionalPreferencesInput, COUNTIES, HOUSING_INTERESTS, SET_ASIDES, UNIT_SIZES } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { householdCalls, useHouseholdMutation } from '../api/profile';
import { CheckboxField, LookupSelect } from './fields';

/** Housing choices (spec section 3): interests, counties, unit size, set-asides, accessibility, pet. */
export function HousingChoicesForm({ preferences }: { preferences: Record<string, unknown> | null }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const form = useForm<Record<string, unknown>>({ resolver: zodResolver(AdditionalPreferencesInput) as never, defaultValues: preferences ?? { interests: {}, preferredCounties: [], setAsides: [], accessibility: [] } });
  const save = useHouseholdMutation(householdCalls.savePreferences);
  const group = (name: string, category: string, codes: readonly string[]) => (
    <fieldset className="radio-group">
      <legend>{t(`profile:housing.${name}` as never)}</legend>
      {codes.map((code) => (
        <label key={code} className="radio">
          <input type="checkbox" value={code} {...form.register(name)} /> {t(`lookups:${category}.${code}` as never)}
        </label>
      ))}
    </fieldset>
  );
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate({ ...values, unitSize: values.unitSize || null }))}>
      <fieldset className="radio-group">
        <legend>{t('profile:housing.interests')}</legend>
        {HOUSING_INTERESTS.map((code) => <CheckboxField key={code} label={t(`lookups:housingInterest.${code}` as never)} registration={form.register(`interests.${code}`)} />)}
      </fieldset>
      {group('preferredCounties', 'county', COUNTIES)}
      <LookupSelect label={t('profile:housing.unitSize')} category="unitSize" codes={UNIT_SIZES} registration={form.register('unitSize')} />
      {group('setAsides', 'setAside', SET_ASIDES)}
      {group('accessibility', 'accessibility', ACCESSIBILITY_TAGS)}
      <CheckboxField label={t('profile:housing.pet')} registration={form.register('pet')} />
      {save.error ? <p className="form-error" role="alert">{errorText(save.error)}</p> : null}
      {save.isSuccess ? <p role="status">{t('profile:form.saved')}</p> : null}
      <button type="submit" className="button button-primary" disabled={save.isPending}>{t('profile:housing.save')}</button>
    </form>
  );
}
