import { FORM_MESSAGES } from './form-messages';
import { z } from 'zod';
import { REQUIRED, isoDate, last4, money, optionalMoney, optionalText, requiredText, uuid } from './fields';

/** Spec section 3 asset kinds, named as in the section-7 HouseholdAssets routes. */
export const ASSET_KINDS = [
  'BankAccounts', 'RetirementAccounts', 'InvestmentAssets', 'RealEstateAssets', 'OtherAssets', 'DisposedAssets',
  'TrustAssets', 'LifeInsuranceAssets', 'CashBalance', 'EBTCards',
] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

export const BANK_ACCOUNT_TYPES = ['certificate_of_deposit', 'checking', 'savings'] as const;
export const RETIREMENT_TYPES = ['annuity', 'pension', 'ira', '401k'] as const;
export const INVESTMENT_TYPES = ['bonds', 'cryptocurrency', 'stocks', 'mutual_funds'] as const;
export const REAL_ESTATE_TYPES = ['land', 'building', 'home'] as const;
export const TRUST_TYPES = ['revocable', 'irrevocable'] as const;
export const LIFE_INSURANCE_TYPES = ['whole_life', 'universal', 'term'] as const;

export const BANK_MESSAGES = { institution: 'Financial institution is required' } as const;

const base = { id: uuid.optional(), memberId: uuid.nullish().transform((v) => v ?? null) };

/** One schema per kind; `kind` says which. Section 5: bank last 4 numeric, balance/income numbers, institution required. */
export const AssetInput = z.discriminatedUnion(
  'kind',
  [
    z.object({
      ...base,
      kind: z.literal('BankAccounts'),
      accountType: z.enum(BANK_ACCOUNT_TYPES, REQUIRED),
      institution: z.string(BANK_MESSAGES.institution).trim().min(1, BANK_MESSAGES.institution).max(200),
      last4,
      balance: money,
      annualIncome: money,
    }),
    z.object({
      ...base,
      kind: z.literal('RetirementAccounts'),
      retirementType: z.enum(RETIREMENT_TYPES, REQUIRED),
      institution: z.string(BANK_MESSAGES.institution).trim().min(1, BANK_MESSAGES.institution).max(200),
      value: money,
      accessibleDuringRetirement: z.boolean().default(false),
    }),
    z.object({ ...base, kind: z.literal('InvestmentAssets'), investmentType: z.enum(INVESTMENT_TYPES, REQUIRED), institution: requiredText(200), marketValue: money }),
    z.object({
      ...base,
      kind: z.literal('RealEstateAssets'),
      realEstateType: z.enum(REAL_ESTATE_TYPES, REQUIRED),
      address: requiredText(300),
      mortgageRemaining: money,
      rentalIncome: optionalMoney,
    }),
    z.object({ ...base, kind: z.literal('OtherAssets'), description: requiredText(300), value: money }),
    z.object({ ...base, kind: z.literal('DisposedAssets'), description: optionalText(300), disposedDate: isoDate, marketValue: money, receivedAmount: money }),
    z.object({ ...base, kind: z.literal('TrustAssets'), trustType: z.enum(TRUST_TYPES, REQUIRED), beneficiaryOrOwner: requiredText(200), value: optionalMoney }),
    z.object({
      ...base,
      kind: z.literal('LifeInsuranceAssets'),
      policyType: z.enum(LIFE_INSURANCE_TYPES, REQUIRED),
      cashSurrenderValue: money,
      owner: requiredText(200),
    }),
    z.object({ ...base, kind: z.literal('CashBalance'), amount: money }),
    z.object({ ...base, kind: z.literal('EBTCards'), cardType: z.enum(['ebt', 'debit', 'rush'], REQUIRED), last4 }),
  ],
  { error: FORM_MESSAGES.selectAssetType },
);
export type AssetInput = z.infer<typeof AssetInput>;
export type AssetForm = z.input<typeof AssetInput>;
export type AssetView = AssetInput & { id: string };

/** SaveAssetsMultiple / SaveBankAccounts / SaveRetirementAccounts: at least one entry (section 5). */
export const AssetsMultipleInput = z.array(AssetInput).min(1, FORM_MESSAGES.atLeastOneEntry).max(50);

/** UpdateAssetFlag and friends: the per-kind "do you have any?" answer; NO deletes that kind's entries. */
export const AssetFlagInput = z.object({
  /** Absent: the household-wide "do you have any assets?" question. */
  kind: z.enum(ASSET_KINDS, REQUIRED).optional(),
  hasAny: z.boolean({ error: FORM_MESSAGES.answerRequired }),
  confirmed: z.boolean().default(false),
});
export type AssetFlagInput = z.infer<typeof AssetFlagInput>;
