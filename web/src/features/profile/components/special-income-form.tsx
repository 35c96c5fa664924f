import { useState } from 'react';
import { useForm, type FieldError as HookFieldError, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  ConfirmSelfEmploymentInput, IncomeChangeForecastInput, IncomeInput, IncomeTaxRefundInput, LumpSumPaymentInput, PAY_FREQUENCIES,
  SUPPORT_AGREEMENT_TYPES, ZERO_INCOME_DURATIONS, ZeroIncomeDeclarationInput, type MemberView,
} from '../../../lib/domain';
import { api } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/validation-text';
import { useHouseholdMutation } from '../api/profile';
import { CheckboxField, LookupSelect, TextAreaField, TextField, YesNoField } from './fields';
import { ZeroIncomeLookAhead } from './income-form';

type Values = Record<string, string>;
const yesNo = (v: unknown) => (v === 'true' || v === true ? true : v === 'false' || v === false ? false : undefined);
const wholeYear = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

/**
 * Each question of spec section 7 `/api/SpecialIncome` (and `/api/Household/income-tax-refund`),
 * checked by its shared schema. `prepare` turns what the inputs hold (text, radio values) into the
 * schema's input; child support is an income entry whose amount is what is actually received.
 */
const KINDS = {
  IncomeChangeForecast: { schema: IncomeChangeForecastInput, path: '/SpecialIncome/IncomeChangeForecast', prepare: (v: Values) => ({ ...v, expectsChange: Boolean(v.expectsChange), frequency: v.frequency || null }) },
  LumpSumPayment: { schema: LumpSumPaymentInput, path: '/SpecialIncome/LumpSumPayment', prepare: (v: Values) => v },
  ConfirmSelfEmployment: { schema: ConfirmSelfEmploymentInput, path: '/SpecialIncome/ConfirmSelfEmployment', prepare: (v: Values) => ({ ...v, isSelfEmployed: yesNo(v.isSelfEmployed) }) },
  IncomeTaxRefund: { schema: IncomeTaxRefundInput, path: '/Household/income-tax-refund', prepare: (v: Values) => ({ ...v, taxYear: wholeYear(v.taxYear) }) },
  ZeroIncomeDeclaration: { schema: ZeroIncomeDeclarationInput, path: '/SpecialIncome/ZeroIncomeDeclaration', prepare: (v: Values) => v },
  ChildSupportAlimony: {
    schema: IncomeInput,
    path: '/SpecialIncome/ChildSupportAlimony',
    prepare: (v: Values) => ({ ...v, incomeType: 'alimony_child_support', amount: v.actualAmount, frequency: v.actualFrequency }),
  },
} as const;
type Kind = keyof typeof KINDS;
const KIND_NAMES = Object.keys(KINDS) as Kind[];

function resolverFor(kind: Kind): Resolver<Values> {
  const { schema, prepare } = KINDS[kind];
  const base = zodResolver(schema as never) as unknown as Resolver<Record<string, unknown>>;
  return ((values, context, options) => base(prepare(values), context, options as never)) as Resolver<Values>;
}

/** The household's other income questions (spec sections 3, 5 and 7), one form per question, on the income tab. */
export function SpecialIncomeForm({ members }: { members: MemberView[] }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const [kind, setKind] = useState<Kind>('IncomeChangeForecast');
  return (
    <section className="panel" aria-labelledby="special-title">
      <h3 id="special-title">{t('profile:special.title')}</h3>
      <div className="field">
        <label htmlFor="special-kind">{t('profile:special.kind')}</label>
        <select id="special-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          {KIND_NAMES.map((k) => <option key={k} value={k}>{t(`profile:special.${k}`)}</option>)}
        </select>
      </div>
      <SpecialFields key={kind} kind={kind} members={members} />
    </section>
  );
}

function SpecialFields({ kind, members }: { kind: Kind; members: MemberView[] }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const form = useForm<Values>({ resolver: resolverFor(kind), defaultValues: { memberId: members[0]?.id ?? '' } });
  const save = useHouseholdMutation((values: unknown) => api.post(KINDS[kind].path, values));
  const errors = form.formState.errors as Record<string, HookFieldError | undefined>;
  const { register } = form;
  const field = (name: string, type = 'text') => <TextField key={name} label={t(`profile:special.fields.${name}` as never)} type={type} registration={register(name)} error={errors[name]} />;
  const income = (name: string) => <TextField key={name} label={t(`profile:income.fields.${name}` as never)} registration={register(name)} error={errors[name]} />;
  const frequency = (name: string, label: string) => <LookupSelect key={name} label={label} category="payFrequency" codes={PAY_FREQUENCIES} registration={register(name)} error={errors[name]} />;
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <p className="muted">{t(`profile:special.intro.${kind}`)}</p>
      <div className="field">
        <label htmlFor="special-member">{t('profile:income.member')}</label>
        <select id="special-member" {...register('memberId')}>
          {members.map((m) => <option key={m.id} value={m.id}>{m.fullName}</option>)}
        </select>
      </div>
      {kind === 'IncomeChangeForecast' ? (
        <>
          <CheckboxField label={t('profile:special.fields.expectsChange')} registration={register('expectsChange')} />
          {field('expectedAmount')}
          {frequency('frequency', t('profile:special.fields.frequency'))}
          {field('effectiveDate', 'date')}
          {field('reason')}
        </>
      ) : null}
      {kind === 'LumpSumPayment' ? [field('amount'), field('receivedDate', 'date'), field('source')] : null}
      {kind === 'ConfirmSelfEmployment' ? <YesNoField legend={t('profile:special.fields.isSelfEmployed')} yes={t('profile:special.yes')} no={t('profile:special.no')} registration={register('isSelfEmployed')} error={errors.isSelfEmployed} /> : null}
      {kind === 'IncomeTaxRefund' ? [field('amount'), field('taxYear')] : null}
      {kind === 'ZeroIncomeDeclaration' ? (
        <>
          <LookupSelect label={t('profile:income.fields.duration')} category="zeroIncomeDuration" codes={ZERO_INCOME_DURATIONS} registration={register('duration')} error={errors.duration} />
          <TextAreaField label={t('profile:income.fields.reasons')} registration={register('reasons')} error={errors.reasons} />
          <TextAreaField label={t('profile:income.fields.expenses')} registration={register('expenses')} error={errors.expenses} />
          <ZeroIncomeLookAhead form={form} errors={errors} />
        </>
      ) : null}
      {kind === 'ChildSupportAlimony' ? (
        <>
          <LookupSelect label={t('profile:income.fields.agreementType')} category="supportAgreementType" codes={SUPPORT_AGREEMENT_TYPES} registration={register('agreementType')} error={errors.agreementType} />
          {income('expectedAmount')}
          {frequency('expectedFrequency', t('profile:income.fields.expectedFrequency'))}
          {income('actualAmount')}
          {frequency('actualFrequency', t('profile:income.fields.actualFrequency'))}
          <TextAreaField label={t('profile:income.fields.discrepancyReason')} registration={register('discrepancyReason')} error={errors.discrepancyReason} />
        </>
      ) : null}
      {save.error ? <p className="form-error" role="alert">{errorText(save.error)}</p> : null}
      {save.isSuccess ? <p role="status">{t('profile:form.saved')}</p> : null}
      <button type="submit" className="button button-secondary" disabled={save.isPending || members.length === 0}>{t('profile:special.save')}</button>
    </form>
  );
}
