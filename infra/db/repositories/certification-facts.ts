import { ageOn, annualAmount, incomeBandOf, type AssetInput, type IncomeBand, type Language } from '../../../domain';
import { openJson } from '../../data-keys';
import type { Db } from '../database';
import { isLetterLanguage } from '../../letters/text';
import { readIncomes } from './household-income-store';

/**
 * What an income certification carries: the household's members, each income source
 * annualised, assets and their income, the totals, the AMI percentage and band, unit and rent, the
 * effective date and who signs. Read from the database when the letter is made (amounts are sealed
 * at rest and opened here, never carried in workflow history).
 */
export interface CertificationFacts {
  language: Language;
  householdSize: number;
  members: { name: string; relationship: string; age: number; student: boolean; disability: boolean }[];
  incomes: { memberName: string; incomeType: string; sourceName: string; amount: number; frequency: string; annual: number }[];
  assets: { memberName: string; kind: string; value: number; income: number }[];
  totalIncome: number;
  assetIncome: number;
  band: IncomeBand | null;
}

/** The value and the yearly income of an asset, by kind (domain/assets.ts). */
function assetFigures(a: AssetInput): { value: number; income: number } {
  switch (a.kind) {
    case 'BankAccounts':
      return { value: a.balance, income: a.annualIncome };
    case 'RetirementAccounts':
    case 'OtherAssets':
      return { value: a.value, income: 0 };
    case 'InvestmentAssets':
    case 'DisposedAssets':
      return { value: a.marketValue, income: 0 };
    case 'RealEstateAssets':
      return { value: 0, income: a.rentalIncome ?? 0 };
    case 'TrustAssets':
      return { value: a.value ?? 0, income: 0 };
    case 'LifeInsuranceAssets':
      return { value: a.cashSurrenderValue, income: 0 };
    case 'CashBalance':
      return { value: a.amount, income: 0 };
    case 'EBTCards':
      return { value: 0, income: 0 };
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The household's preferred language for letters: the head of household's member record (asked in
 * the profile), else the head's account language (the one notices use).
 */
async function languageOf(db: Db, householdId: string): Promise<Language> {
  const member = await db
    .selectFrom('household_members')
    .select('preferred_language')
    .where('household_id', '=', householdId)
    .where('head_of_household', '=', true)
    .executeTakeFirst();
  if (isLetterLanguage(member?.preferred_language)) return member.preferred_language;
  const user = await db
    .selectFrom('households')
    .innerJoin('users', 'users.id', 'households.head_user_id')
    .select('users.preferred_language')
    .where('households.id', '=', householdId)
    .executeTakeFirst();
  return isLetterLanguage(user?.preferred_language) ? user.preferred_language : 'en';
}

/** Reads the facts of a household's certification as of `effectiveDate` ('YYYY-MM-DD'). */
export async function certificationFacts(db: Db, householdId: string, effectiveDate: string): Promise<CertificationFacts> {
  const [language, household, memberRows, incomes, assetRows] = await Promise.all([
    languageOf(db, householdId),
    db.selectFrom('households').select('household_size').where('id', '=', householdId).executeTakeFirstOrThrow(),
    db
      .selectFrom('household_members')
      .select(['id', 'full_name', 'relationship', 'date_of_birth', 'student_status', 'disability'])
      .where('household_id', '=', householdId)
      .orderBy('head_of_household', 'desc')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    readIncomes(db, householdId),
    db.selectFrom('household_assets').select(['member_id', 'details']).where('household_id', '=', householdId).orderBy('created_at').orderBy('id').execute(),
  ]);
  const nameOf = new Map(memberRows.map((m) => [m.id, m.full_name]));
  const incomeLines = incomes
    .filter((i) => i.incomeType !== 'zero_income')
    .map((i) => ({
      memberName: nameOf.get(i.memberId) ?? '',
      incomeType: i.incomeType,
      sourceName: 'sourceName' in i.details && typeof i.details.sourceName === 'string' ? i.details.sourceName : '',
      amount: i.amount,
      frequency: i.frequency,
      annual: round2(annualAmount(i.amount, i.frequency)),
    }));
  const assets = assetRows.map((row) => {
    const asset = openJson<AssetInput>(row.details);
    return { memberName: (row.member_id && nameOf.get(row.member_id)) || '', kind: asset.kind, ...assetFigures(asset) };
  });
  // The same total and band the recertification case shows (infra/db/repositories/household-income-total.ts).
  const totalIncome = round2(incomeLines.reduce((sum, i) => sum + i.annual, 0));
  const size = Math.min(Math.max(household.household_size || memberRows.length, 1), 8);
  const ami = await db.selectFrom('ami_limits').select('ami_100').where('household_size', '=', size).executeTakeFirst();
  return {
    language,
    householdSize: household.household_size || memberRows.length,
    members: memberRows.map((m) => ({
      name: m.full_name,
      relationship: m.relationship,
      age: ageOn(String(m.date_of_birth).slice(0, 10), effectiveDate),
      student: m.student_status !== 'not_a_student',
      disability: m.disability,
    })),
    incomes: incomeLines,
    assets,
    totalIncome,
    assetIncome: round2(assets.reduce((sum, a) => sum + a.income, 0)),
    band: ami ? incomeBandOf(totalIncome, Number(ami.ami_100)) : null,
  };
}
