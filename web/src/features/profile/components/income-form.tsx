import { useForm, type FieldError as HookFieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  CONTRIBUTION_TYPES, GIG_PLATFORM_CATEGORIES, INCOME_TYPES, IncomeInput, PAY_FREQUENCIES, SUPPORT_AGREEMENT_TYPES, ZERO_INCOME_DURATIONS,
  exceedsLongTermCareLimit, longTermCareDailyAmount, todayIso, zeroIncomeLookAheadEnd, type PayFrequency,
  type IncomeView,
  type MemberView,
} from '../../../lib/domain';
import { useFailureText } from './failure-text';
import { householdCalls, useHouseholdMutation } from '../api/profile';
import { CheckboxField, LookupSelect, TextField } from './fields';
import { formatDate, formatMoney } from '../../../lib/format';

type Extra = { name: string; kind: 'text' | 'date' | 'number' } | { name: string; kind: 'select'; category: string; codes: readonly string[] };
/** The own fields of each income type (spec section 3); the common fields are always shown. */
const EXTRA: Partial<Record<(typeof INCOME_TYPES)[number], Extra[]>> = {
  employment: [{ name: 'employerName', kind: 'text' }, { name: 'jobTitle', kind: 'text' }, { name: 'startDate', kind: 'date' }],
  self_employment: [{ name: 'businessName', kind: 'text' }, { name: 'natureOfBusiness', kind: 'text' }, { name: 'typeOfWork', kind: 'text' }, { name: 'expectedAnnualIncome', kind: 'number' }],
  contributions: [{ name: 'supporterName', kind: 'text' }, { name: 'contributionType', kind: 'select', category: 'contributionType', codes: CONTRIBUTION_TYPES }, { name: 'startDate', kind: 'date' }],
  zero_income: [{ name: 'duration', kind: 'select', category: 'zeroIncomeDuration', codes: ZERO_INCOME_DURATIONS }, { name: 'reasons', kind: 'text' }, { name: 'expenses', kind: 'text' }],
  alimony_child_support: [
    { name: 'agreementType', kind: 'select', category: 'supportAgreementType', codes: SUPPORT_AGREEMENT_TYPES },
    { name: 'expectedAmount', kind: 'number' }, { name: 'expectedFrequency', kind: 'select', category: 'payFrequency', codes: PAY_FREQUENCIES },
    { name: 'actualAmount', kind: 'number' }, { name: 'actualFrequency', kind: 'select', category: 'payFrequency', codes: PAY_FREQUENCIES },
    { name: 'discrepancyReason', kind: 'text' },
  ],
  gig_economy: [{ name: 'platformCategory', kind: 'select', category: 'gigPlatformCategory', codes: GIG_PLATFORM_CATEGORIES }, { name: 'platformName', kind: 'text' }],
};

/** Add an income entry of any type, validated by the shared IncomeInput schema. */
export function IncomeForm({ members, entry, onDone }: { members: MemberView[]; entry?: IncomeView; onDone: () => void }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const failureText = useFailureText();
  const form = useForm<Record<string, string>>({
    resolver: zodResolver(IncomeInput) as never,
    defaultValues: entry
      ? (Object.fromEntries(Object.entries(entry).filter(([k]) => k !== 'memberName' && k !== 'annualAmount').map(([k, v]) => [k, v === null ? '' : Array.isArray(v) ? v : String(v)])) as Record<string, string>)
      : { memberId: members[0]?.id ?? '', incomeType: 'employment', frequency: 'monthly' },
  });
  const save = useHouseholdMutation((values: Record<string, unknown>) => householdCalls.saveIncome({ ...values, id: entry?.id }));
  const { register, watch } = form;
  const errors = form.formState.errors as Record<string, HookFieldError | undefined>;
  const type = watch('incomeType') as (typeof INCOME_TYPES)[number];

  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values, { onSuccess: onDone }))}>
      <div className="field">
        <label htmlFor="income-member">{t('profile:income.member')}</label>
        <select id="income-member" {...register('memberId')}>
          {members.map((m) => <option key={m.id} value={m.id}>{m.fullName}</option>)}
        </select>
      </div>
      <LookupSelect label={t('profile:income.type')} category="incomeType" codes={INCOME_TYPES} registration={register('incomeType')} error={errors.incomeType} />
      <TextField label={t('profile:income.sourceName')} registration={register('sourceName')} error={errors.sourceName} />
      <TextField label={t('profile:income.amount')} registration={register('amount')} error={errors.amount} />
      <LookupSelect label={t('profile:income.frequency')} category="payFrequency" codes={PAY_FREQUENCIES} registration={register('frequency')} error={errors.frequency} />
      <TextField label={t('profile:income.awardLetterDate')} type="date" registration={register('awardLetterDate')} error={errors.awardLetterDate} />
      {(EXTRA[type] ?? []).map((f) =>
        f.kind === 'select' ? (
          <LookupSelect key={f.name} label={t(`profile:income.fields.${f.name}` as never)} category={f.category} codes={f.codes} registration={register(f.name)} error={errors[f.name]} />
        ) : (
          <TextField key={f.name} label={t(`profile:income.fields.${f.name}` as never)} type={f.kind === 'date' ? 'date' : 'text'} registration={register(f.name)} error={errors[f.name]} />
        ),
      )}
      {type === 'self_employment' ? <SelfEmploymentRecords form={form} errors={errors} /> : null}
      {type === 'zero_income' ? <ZeroIncomeLookAhead form={form} errors={errors} /> : null}
      {type === 'long_term_care' ? <LongTermCareNote amount={watch('amount')} frequency={watch('frequency') as PayFrequency} /> : null}
      {save.error ? <p className="form-error" role="alert">{failureText(save.error, 'incomeSave')}</p> : null}
      <div className="action-buttons">
        <button type="submit" className="button button-primary" disabled={save.isPending}>{t('profile:form.save')}</button>
        <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:form.cancel')}</button>
      </div>
    </form>
  );
}

/** Spec sections 3 and 9: a self-employed member's tax return years (up to 3) and the link to the 1099 form. */
function SelfEmploymentRecords({ form, errors }: { form: ReturnType<typeof useForm<Record<string, string>>>; errors: Record<string, HookFieldError | undefined> }) {
  const { t } = useTranslation('profile');
  const yearErrors = errors.taxReturnYears as unknown as (HookFieldError | undefined)[] | HookFieldError | undefined;
  const yearError = Array.isArray(yearErrors) ? yearErrors.find(Boolean) : yearErrors;
  return (
    <>
      <fieldset className="fieldset">
        <legend>{t('income.taxReturnYears.title')}</legend>
        {[0, 1, 2].map((i) => (
          <TextField key={i} label={t('income.taxReturnYears.year', { n: i + 1 })} registration={form.register(`taxReturnYears.${i}`)} error={i === 0 ? yearError : undefined} />
        ))}
      </fieldset>
      <TextField label={t('income.fields.form1099Url')} type="url" registration={form.register('form1099Url')} error={errors.form1099Url} />
    </>
  );
}

/** Spec section 9: a zero-income declaration looks 12 months ahead; income expected in that time is declared with its date. */
export function ZeroIncomeLookAhead({ form, errors }: { form: ReturnType<typeof useForm<Record<string, string>>>; errors: Record<string, HookFieldError | undefined> }) {
  const { t } = useTranslation('profile');
  const until = zeroIncomeLookAheadEnd(todayIso());
  const expects = form.watch('expectsIncomeWithin12Months') as unknown;
  return (
    <fieldset className="fieldset">
      <legend>{t('income.lookAhead.title')}</legend>
      <p className="muted">{t('income.lookAhead.note', { date: formatDate(until) })}</p>
      <CheckboxField label={t('income.lookAhead.expects')} registration={form.register('expectsIncomeWithin12Months')} />
      {expects === true || expects === 'true' ? (
        <>
          <TextField label={t('income.lookAhead.date')} type="date" registration={form.register('expectedIncomeDate')} error={errors.expectedIncomeDate} />
          <TextField label={t('income.lookAhead.amount')} registration={form.register('expectedIncomeAmount')} error={errors.expectedIncomeAmount} />
        </>
      ) : null}
    </fieldset>
  );
}

/** Spec section 9: long-term care insurance payments above $180 a day are referred to (the part above counts as income). */
function LongTermCareNote({ amount, frequency }: { amount: string | undefined; frequency: PayFrequency }) {
  const { t } = useTranslation('profile');
  const value = Number(String(amount ?? '').replace(/[,\s$]/g, ''));
  if (!Number.isFinite(value) || value <= 0 || !frequency || !exceedsLongTermCareLimit(value, frequency)) return null;
  return (
    <p className="notice" role="status">
      {t('income.longTermCareNote', { daily: formatMoney(Math.round(longTermCareDailyAmount(value, frequency) * 100) / 100), limit: formatMoney(180) })}
    </p>
  );
}
