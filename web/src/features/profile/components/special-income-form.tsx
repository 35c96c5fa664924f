import { useState } from 'react';
import { useForm, type FieldError as HookFieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { IncomeChangeForecastInput, LumpSumPaymentInput, PAY_FREQUENCIES, type MemberView } from '../../../lib/domain';
import { api } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/validation-text';
import { useHouseholdMutation } from '../api/profile';
import { CheckboxField, LookupSelect, TextField } from './fields';

const KINDS = { IncomeChangeForecast: IncomeChangeForecastInput, LumpSumPayment: LumpSumPaymentInput } as const;
type Kind = keyof typeof KINDS;

/** SpecialIncome answers (spec section 7): an expected income change, a lump-sum payment. */
export function SpecialIncomeForm({ members }: { members: MemberView[] }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const [kind, setKind] = useState<Kind>('IncomeChangeForecast');
  return (
    <div className="panel">
      <h3>{t('profile:special.title')}</h3>
      <div className="field">
        <label htmlFor="special-kind">{t('profile:special.kind')}</label>
        <select id="special-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          <option value="IncomeChangeForecast">{t('profile:special.IncomeChangeForecast')}</option>
          <option value="LumpSumPayment">{t('profile:special.LumpSumPayment')}</option>
        </select>
      </div>
      <SpecialFields key={kind} kind={kind} members={members} />
    </div>
  );
}

function SpecialFields({ kind, members }: { kind: Kind; members: MemberView[] }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const form = useForm<Record<string, unknown>>({ resolver: zodResolver(KINDS[kind]) as never, defaultValues: { memberId: members[0]?.id ?? '', expectsChange: false } });
  const save = useHouseholdMutation((values: Record<string, unknown>) => api.post(`/SpecialIncome/${kind}`, values));
  const errors = form.formState.errors as Record<string, HookFieldError | undefined>;
  const field = (name: string, type = 'text') => <TextField label={t(`profile:special.fields.${name}` as never)} type={type} registration={form.register(name)} error={errors[name]} />;
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate({ ...values, frequency: values.frequency || null }))}>
      <div className="field">
        <label htmlFor="special-member">{t('profile:income.member')}</label>
        <select id="special-member" {...form.register('memberId')}>
          {members.map((m) => <option key={m.id} value={m.id}>{m.fullName}</option>)}
        </select>
      </div>
      {kind === 'IncomeChangeForecast' ? (
        <>
          <CheckboxField label={t('profile:special.fields.expectsChange')} registration={form.register('expectsChange')} />
          {field('expectedAmount')}
          <LookupSelect label={t('profile:special.fields.frequency')} category="payFrequency" codes={PAY_FREQUENCIES} registration={form.register('frequency')} error={errors.frequency} />
          {field('effectiveDate', 'date')}
          {field('reason')}
        </>
      ) : (
        <>
          {field('amount')}
          {field('receivedDate', 'date')}
          {field('source')}
        </>
      )}
      {save.error ? <p className="form-error" role="alert">{errorText(save.error)}</p> : null}
      {save.isSuccess ? <p role="status">{t('profile:form.saved')}</p> : null}
      <button type="submit" className="button button-secondary" disabled={save.isPending || members.length === 0}>{t('profile:special.save')}</button>
    </form>
  );
}
