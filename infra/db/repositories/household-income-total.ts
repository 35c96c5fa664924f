import { annualAmount } from '../../../domain';
import type { Db } from '../database';
import { openNumber } from '../../data-keys';
import { readIncomes } from './household-income-store';

/**
 * A household's total annual income, for the income band of the recertification case (spec
 * section 3): the sum of its income entries (zero-income entries aside), decrypted here since
 * amounts are sealed at rest; without entries, the tenancy's declared annual income. Null when
 * neither is known.
 */
export async function householdIncomeTotal(db: Db, householdId: string): Promise<number | null> {
  const incomes = (await readIncomes(db, householdId)).filter((i) => i.incomeType !== 'zero_income');
  if (incomes.length > 0) return Math.round(incomes.reduce((sum, i) => sum + annualAmount(i.amount, i.frequency), 0) * 100) / 100;
  const tenancy = await db.selectFrom('tenancies').select(['declared_annual_income', 'declared_annual_income_encrypted']).where('household_id', '=', householdId).executeTakeFirst();
  return tenancy ? openNumber(tenancy.declared_annual_income_encrypted, tenancy.declared_annual_income) : null;
}
