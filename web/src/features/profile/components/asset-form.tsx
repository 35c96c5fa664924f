import { useForm, type FieldError as HookFieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  ASSET_KINDS, AssetInput, BANK_ACCOUNT_TYPES, INVESTMENT_TYPES, LIFE_INSURANCE_TYPES, REAL_ESTATE_TYPES, RETIREMENT_TYPES, TRUST_TYPES,
} from '../../../lib/domain';
import { ASSET_SAVE_FAILURE, useFailureText } from './failure-text';
import { householdCalls, useHouseholdMutation } from '../api/profile';
import { CheckboxField, LookupSelect, TextField } from './fields';

type Field = { name: string; kind: 'text' | 'date' | 'bool' } | { name: string; kind: 'select'; category: string; codes: readonly string[] };
/** The fields of each asset kind (spec section 3). */
const FIELDS: Record<(typeof ASSET_KINDS)[number], Field[]> = {
  BankAccounts: [{ name: 'accountType', kind: 'select', category: 'bankAccountType', codes: BANK_ACCOUNT_TYPES }, { name: 'institution', kind: 'text' }, { name: 'last4', kind: 'text' }, { name: 'balance', kind: 'text' }, { name: 'annualIncome', kind: 'text' }],
  RetirementAccounts: [{ name: 'retirementType', kind: 'select', category: 'retirementType', codes: RETIREMENT_TYPES }, { name: 'institution', kind: 'text' }, { name: 'value', kind: 'text' }, { name: 'accessibleDuringRetirement', kind: 'bool' }],
  InvestmentAssets: [{ name: 'investmentType', kind: 'select', category: 'investmentType', codes: INVESTMENT_TYPES }, { name: 'institution', kind: 'text' }, { name: 'marketValue', kind: 'text' }],
  RealEstateAssets: [{ name: 'realEstateType', kind: 'select', category: 'realEstateType', codes: REAL_ESTATE_TYPES }, { name: 'address', kind: 'text' }, { name: 'mortgageRemaining', kind: 'text' }, { name: 'rentalIncome', kind: 'text' }],
  OtherAssets: [{ name: 'description', kind: 'text' }, { name: 'value', kind: 'text' }],
  DisposedAssets: [{ name: 'description', kind: 'text' }, { name: 'disposedDate', kind: 'date' }, { name: 'marketValue', kind: 'text' }, { name: 'receivedAmount', kind: 'text' }],
  TrustAssets: [{ name: 'trustType', kind: 'select', category: 'trustType', codes: TRUST_TYPES }, { name: 'beneficiaryOrOwner', kind: 'text' }, { name: 'value', kind: 'text' }],
  LifeInsuranceAssets: [{ name: 'policyType', kind: 'select', category: 'lifeInsuranceType', codes: LIFE_INSURANCE_TYPES }, { name: 'cashSurrenderValue', kind: 'text' }, { name: 'owner', kind: 'text' }],
  CashBalance: [{ name: 'amount', kind: 'text' }],
  EBTCards: [{ name: 'cardType', kind: 'select', category: 'cardType', codes: ['ebt', 'debit', 'rush'] }, { name: 'last4', kind: 'text' }],
};

/** Add an asset of any kind, validated by the shared AssetInput schema (bank account rules of section 5). */
export function AssetForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const failureText = useFailureText();
  const form = useForm<Record<string, string | boolean>>({ resolver: zodResolver(AssetInput) as never, defaultValues: { kind: 'BankAccounts' } });
  const save = useHouseholdMutation(householdCalls.saveAsset);
  const errors = form.formState.errors as Record<string, HookFieldError | undefined>;
  const kind = form.watch('kind') as (typeof ASSET_KINDS)[number];

  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values as { kind: string }, { onSuccess: onDone }))}>
      <LookupSelect label={t('profile:assets.kind')} category="assetKind" codes={ASSET_KINDS} registration={form.register('kind')} error={errors.kind} />
      {(FIELDS[kind] ?? []).map((f) => {
        const label = t(`profile:assets.fields.${f.name}` as never);
        if (f.kind === 'select') return <LookupSelect key={`${kind}-${f.name}`} label={label} category={f.category} codes={f.codes} registration={form.register(f.name)} error={errors[f.name]} />;
        if (f.kind === 'bool') return <CheckboxField key={`${kind}-${f.name}`} label={label} registration={form.register(f.name)} />;
        return <TextField key={`${kind}-${f.name}`} label={label} type={f.kind === 'date' ? 'date' : 'text'} registration={form.register(f.name)} error={errors[f.name]} />;
      })}
      {save.error ? <p className="form-error" role="alert">{failureText(save.error, ASSET_SAVE_FAILURE[kind] ?? 'assetSave')}</p> : null}
      <div className="action-buttons">
        <button type="submit" className="button button-primary" disabled={save.isPending}>{t('profile:form.save')}</button>
        <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:form.cancel')}</button>
      </div>
    </form>
  );
}
