import type { IncomeInput, IncomeType, PayFrequency } from '../../../domain';
import type { Db } from '../database';
import { openJson, openNumber, sealJson, sealNumber } from '../../data-keys';

/**
 * Income entries at rest: the amount and every field of the entry are sealed with the data key
 * (infra/crypto.ts); only the member, the income type and the frequency stay readable, for the
 * required-documents checklist. Rows written before encryption (plain `amount`, plain `details`)
 * are still read, and infra/key-rotation.ts seals them (API start-up, `npm run keys:rotate`).
 */
export interface StoredIncome {
  id: string;
  memberId: string;
  incomeType: IncomeType;
  frequency: PayFrequency;
  amount: number;
  details: Omit<IncomeInput, 'id'>;
}

interface IncomeRow {
  id: string;
  member_id: string;
  income_type: string;
  frequency: string;
  amount: string | null;
  amount_encrypted: string | null;
  details: unknown;
}

export function sealedIncomeColumns(input: Omit<IncomeInput, 'id'>) {
  return {
    member_id: input.memberId,
    income_type: input.incomeType,
    frequency: input.frequency,
    amount: null,
    amount_encrypted: sealNumber(input.amount),
    details: sealJson(input),
  };
}

export function openIncome(row: IncomeRow): StoredIncome {
  return {
    id: row.id,
    memberId: row.member_id,
    incomeType: row.income_type as IncomeType,
    frequency: row.frequency as PayFrequency,
    amount: openNumber(row.amount_encrypted, row.amount) ?? 0,
    details: openJson<Omit<IncomeInput, 'id'>>(row.details),
  };
}

const COLUMNS = ['id', 'member_id', 'income_type', 'frequency', 'amount', 'amount_encrypted', 'details', 'created_at'] as const;

/** Every income entry of a household, opened, in the order entered. */
export async function readIncomes(db: Db, householdId: string): Promise<StoredIncome[]> {
  const rows = await db.selectFrom('household_incomes').select(COLUMNS).where('household_id', '=', householdId).orderBy('created_at').orderBy('id').execute();
  return rows.map(openIncome);
}
