import { FORM_MESSAGES } from './form-messages';
import { z } from 'zod';
import { REASON_MESSAGE, REQUIRED, UNSAFE_TEXT_MESSAGE, isSafeText, isoDate, money, optionalDate, optionalMoney, optionalText, requiredText, todayIso, uuid } from './fields';

/** Spec section 3 pay frequencies, and how many times a year each is paid. */
export const PAY_FREQUENCIES = ['annually', 'monthly', 'hourly', 'quarterly', 'bi_weekly', 'weekly', 'semimonthly', 'one_time'] as const;
export type PayFrequency = (typeof PAY_FREQUENCIES)[number];
/** Hourly assumes 40 hours a week; one-time counts once. */
export const PAYMENTS_PER_YEAR: Record<PayFrequency, number> = {
  annually: 1, monthly: 12, hourly: 2080, quarterly: 4, bi_weekly: 26, weekly: 52, semimonthly: 24, one_time: 1,
};
export const annualAmount = (amount: number, frequency: PayFrequency) => amount * PAYMENTS_PER_YEAR[frequency];

/** Spec section 3 income types. */
export const INCOME_TYPES = [
  'employment', 'self_employment', 'social_security', 'ssi', 'ssp', 'pension', 'veterans', 'disability', 'unemployment',
  'workers_compensation', 'public_assistance', 'military_pay', 'contributions', 'asset_income', 'long_term_care', 'grants',
  'other', 'zero_income', 'alimony_child_support', 'lump_sum', 'anticipated_change', 'gig_economy', 'income_tax_refund',
] as const;
export type IncomeType = (typeof INCOME_TYPES)[number];

export const GIG_PLATFORM_CATEGORIES = ['rideshare', 'delivery', 'freelance', 'home_services', 'rental_platform', 'other'] as const;
export const SUPPORT_AGREEMENT_TYPES = ['court_order', 'written_agreement', 'informal'] as const;
export const CONTRIBUTION_TYPES = ['cash', 'rent_paid', 'bills_paid', 'groceries', 'other'] as const;
export const ZERO_INCOME_DURATIONS = ['less_than_3_months', '3_to_6_months', '6_to_12_months', 'more_than_12_months'] as const;

export const ZERO_INCOME_MESSAGES = {
  noValidIncome: 'At least one household member must report valid income',
  allZero: 'All members cannot declare zero income',
  explanation: 'Explanation required for zero income',
  lookAhead: 'Enter a date within the next 12 months',
} as const;

/** Section 5: 'Explanation required for zero income', on every form that declares zero income. */
const zeroIncomeExplanation = z.string({ error: ZERO_INCOME_MESSAGES.explanation }).trim().min(1, ZERO_INCOME_MESSAGES.explanation).max(1000).refine(isSafeText, UNSAFE_TEXT_MESSAGE);

/** Fields every income entry has (spec section 3: source name, amount, frequency, award letter date). */
const common = {
  id: uuid.optional(),
  memberId: uuid,
  sourceName: optionalText(200),
  amount: money,
  frequency: z.enum(PAY_FREQUENCIES, REQUIRED),
  awardLetterDate: optionalDate,
};
const simple = <T extends IncomeType>(type: T) => z.object({ ...common, incomeType: z.literal(type) });

/** Spec section 9: a zero-income declaration looks 12 months ahead. */
export const ZERO_INCOME_LOOK_AHEAD_MONTHS = 12;

/** The last day a zero-income declaration made on `today` covers ('YYYY-MM-DD'). */
export function zeroIncomeLookAheadEnd(today: string): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const end = new Date(Date.UTC(y, m - 1 + ZERO_INCOME_LOOK_AHEAD_MONTHS, 1));
  // The same day 12 months on, or the month's last day (29 Feb is followed by 28 Feb).
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(d, lastDay));
  return end.toISOString().slice(0, 10);
}

/** Whether income is expected within the look-ahead, and if so when and how much. */
const zeroIncomeLookAhead = {
  expectsIncomeWithin12Months: z.preprocess((v) => (v === 'true' ? true : v === 'false' || v === '' || v == null ? false : v), z.boolean()),
  expectedIncomeDate: optionalDate,
  expectedIncomeAmount: optionalMoney,
};

function checkZeroIncomeLookAhead(
  v: { expectsIncomeWithin12Months: boolean; expectedIncomeDate: string | null; expectedIncomeAmount: number | null },
  ctx: z.RefinementCtx,
): void {
  if (!v.expectsIncomeWithin12Months) return;
  if (v.expectedIncomeAmount === null) ctx.addIssue({ code: 'custom', path: ['expectedIncomeAmount'], message: REQUIRED });
  const today = todayIso();
  if (!v.expectedIncomeDate) ctx.addIssue({ code: 'custom', path: ['expectedIncomeDate'], message: REQUIRED });
  else if (v.expectedIncomeDate <= today || v.expectedIncomeDate > zeroIncomeLookAheadEnd(today)) {
    ctx.addIssue({ code: 'custom', path: ['expectedIncomeDate'], message: ZERO_INCOME_MESSAGES.lookAhead });
  }
}

/**
 * Spec section 9: long-term medical care insurance payments are referred to above $180 per day
 * (the part above that counts as income); the form says so when an entry is above it.
 */
export const LONG_TERM_CARE_DAILY_LIMIT = 180;
export const longTermCareDailyAmount = (amount: number, frequency: PayFrequency) => annualAmount(amount, frequency) / 365;
export const exceedsLongTermCareLimit = (amount: number, frequency: PayFrequency) => longTermCareDailyAmount(amount, frequency) > LONG_TERM_CARE_DAILY_LIMIT;

/** Up to 3 tax return years; as a form sends them, a blank year is left out and a year typed as text read as a number. */
const taxReturnYears = z.preprocess(
  (v) => (Array.isArray(v) ? v.filter((year) => year !== '' && year !== null && year !== undefined).map((year) => (typeof year === 'string' ? Number(year.trim()) : year)) : v),
  z.array(z.number({ error: FORM_MESSAGES.taxYear }).int(FORM_MESSAGES.taxYear).min(1990, FORM_MESSAGES.taxYear).max(2100, FORM_MESSAGES.taxYear)).max(3, FORM_MESSAGES.taxReturnYears),
);

export const IncomeInput = z.discriminatedUnion(
  'incomeType',
  [
    z.object({ ...common, incomeType: z.literal('employment'), employerName: requiredText(200), jobTitle: optionalText(200), startDate: isoDate }),
    z.object({
      ...common,
      incomeType: z.literal('self_employment'),
      businessName: requiredText(200),
      natureOfBusiness: optionalText(200),
      typeOfWork: optionalText(200),
      // Spec section 9: tax return years 3.
      taxReturnYears: taxReturnYears.default([]),
      form1099Url: optionalText(500),
      expectedAnnualIncome: optionalMoney,
    }),
    simple('social_security'), simple('ssi'), simple('ssp'), simple('pension'), simple('veterans'), simple('disability'),
    simple('unemployment'), simple('workers_compensation'), simple('public_assistance'), simple('military_pay'),
    z.object({
      ...common,
      incomeType: z.literal('contributions'),
      supporterName: requiredText(200),
      contributionType: z.enum(CONTRIBUTION_TYPES, REQUIRED),
      startDate: isoDate,
    }),
    simple('asset_income'), simple('long_term_care'), simple('grants'), simple('other'),
    z.object({
      ...common,
      incomeType: z.literal('zero_income'),
      amount: z.preprocess((v) => v ?? 0, money).refine((n) => n === 0, FORM_MESSAGES.zeroIncomeMustBeZero),
      duration: z.enum(ZERO_INCOME_DURATIONS, REQUIRED),
      reasons: zeroIncomeExplanation,
      expenses: requiredText(1000),
      ...zeroIncomeLookAhead,
    }).superRefine(checkZeroIncomeLookAhead),
    z.object({
      ...common,
      incomeType: z.literal('alimony_child_support'),
      agreementType: z.enum(SUPPORT_AGREEMENT_TYPES, REQUIRED),
      expectedAmount: money,
      expectedFrequency: z.enum(PAY_FREQUENCIES, REQUIRED),
      actualAmount: money,
      actualFrequency: z.enum(PAY_FREQUENCIES, REQUIRED),
      discrepancyReason: optionalText(1000),
    }),
    simple('lump_sum'), simple('anticipated_change'),
    z.object({ ...common, incomeType: z.literal('gig_economy'), platformCategory: z.enum(GIG_PLATFORM_CATEGORIES, REQUIRED), platformName: requiredText(200) }),
    simple('income_tax_refund'),
  ],
  { error: FORM_MESSAGES.selectIncomeType },
).superRefine((i, ctx) => {
  // A support payment received differently from what was agreed is a discrepancy: 'Please provide a reason.'
  if (i.incomeType === 'alimony_child_support') {
    const differs = i.expectedAmount !== i.actualAmount || i.expectedFrequency !== i.actualFrequency;
    if (differs && !i.discrepancyReason) ctx.addIssue({ code: 'custom', path: ['discrepancyReason'], message: REASON_MESSAGE });
  }
});
export type IncomeInput = z.infer<typeof IncomeInput>;
export type IncomeForm = z.input<typeof IncomeInput>;
export type IncomeView = IncomeInput & { id: string; memberName: string; annualAmount: number };


/**
 * Section 5 across the household: at least one member reports valid (non-zero) income, and not every
 * member declares zero income. Returns the message that applies, or null when the rule holds.
 */
export function householdIncomeProblem(memberIds: string[], incomes: Pick<IncomeInput, 'memberId' | 'incomeType' | 'amount'>[]): string | null {
  const valid = incomes.filter((i) => i.incomeType !== 'zero_income' && i.amount > 0);
  const earning = new Set(valid.map((i) => i.memberId));
  // A member who declared zero income but also reports valid income is not a zero-income member.
  const zeroMembers = new Set(incomes.filter((i) => i.incomeType === 'zero_income' && !earning.has(i.memberId)).map((i) => i.memberId));
  if (memberIds.length > 0 && memberIds.every((id) => zeroMembers.has(id))) return ZERO_INCOME_MESSAGES.allZero;
  if (valid.length === 0) return ZERO_INCOME_MESSAGES.noValidIncome;
  return null;
}

/** Spec section 7 SpecialIncome calls: one body each. */
export const IncomeChangeForecastInput = z.object({
  memberId: uuid,
  expectsChange: z.boolean(),
  expectedAmount: optionalMoney,
  frequency: z.enum(PAY_FREQUENCIES).nullish().transform((v) => v ?? null),
  effectiveDate: optionalDate,
  reason: optionalText(1000),
}).superRefine((f, ctx) => {
  if (!f.expectsChange) return;
  if (f.expectedAmount === null) ctx.addIssue({ code: 'custom', path: ['expectedAmount'], message: REQUIRED });
  if (!f.effectiveDate) ctx.addIssue({ code: 'custom', path: ['effectiveDate'], message: REQUIRED });
  if (!f.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: REASON_MESSAGE });
});
export const ConfirmSelfEmploymentInput = z.object({ memberId: uuid, isSelfEmployed: z.boolean({ error: FORM_MESSAGES.answerRequired }) });
/** Zero-income declaration: spec section 9 looks 12 months ahead. */
export const ZeroIncomeDeclarationInput = z.object({
  memberId: uuid,
  duration: z.enum(ZERO_INCOME_DURATIONS, REQUIRED),
  reasons: zeroIncomeExplanation,
  expenses: requiredText(1000),
  ...zeroIncomeLookAhead,
}).superRefine(checkZeroIncomeLookAhead);
export const LumpSumPaymentInput = z.object({ memberId: uuid, amount: money, receivedDate: isoDate, source: requiredText(200) });
export const IncomeTaxRefundInput = z.object({
  memberId: uuid,
  amount: money,
  taxYear: z.number({ error: (i) => (i.input === undefined ? REQUIRED : FORM_MESSAGES.taxYear) }).int(FORM_MESSAGES.taxYear).min(1990, FORM_MESSAGES.taxYear).max(2100, FORM_MESSAGES.taxYear),
});
export type ZeroIncomeDeclarationInput = z.infer<typeof ZeroIncomeDeclarationInput>;

/**
 * Section 5: a pay-stub employer name that differs from the saved one prompts whether to update the
 * saved name. Differences of case, spacing and punctuation alone do not count.
 */
export function employerNameDiffers(saved: string | null | undefined, onPayStub: string | null | undefined): boolean {
  const norm = (v: string | null | undefined) => (v ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return norm(onPayStub) !== '' && norm(saved) !== norm(onPayStub);
}
