import { annualAmount, INCOME_TYPES, type IncomeInput, type IncomeView } from '../../domain';
import type { Db } from '../../infra/db/database';
import { notFound } from '../errors';
import { readIncomes, sealedIncomeColumns } from '../../infra/db/repositories/household-income-store';
import { upsertProfile } from './household-profile';

async function assertMember(db: Db, householdId: string, memberId: string) {
  const m = await db.selectFrom('household_members').select('id').where('id', '=', memberId).where('household_id', '=', householdId).executeTakeFirst();
  if (!m) throw notFound();
}

/** create / CreateOrUpdateIncome / CreateOrUpdateGigEconomy / CreateOrUpdateZeroIncome: one entry, any type, sealed at rest. */
export async function saveIncome(db: Db, householdId: string, input: IncomeInput): Promise<IncomeView> {
  await assertMember(db, householdId, input.memberId);
  const { id, ...details } = input;
  const values = { ...sealedIncomeColumns(details), updated_at: new Date() };
  let savedId: string;
  if (id) {
    const row = await db.updateTable('household_incomes').set(values).where('id', '=', id).where('household_id', '=', householdId).returning('id').executeTakeFirst();
    if (!row) throw notFound();
    savedId = row.id;
  } else {
    savedId = (await db.insertInto('household_incomes').values({ household_id: householdId, ...values }).returning('id').executeTakeFirstOrThrow()).id;
  }
  // Entering income answers the income question YES.
  await upsertProfile(db, householdId, { has_income: true });
  return (await listIncome(db, householdId)).find((i) => i.id === savedId)!;
}

export async function deleteIncome(db: Db, householdId: string, id: string): Promise<void> {
  const row = await db.deleteFrom('household_incomes').where('id', '=', id).where('household_id', '=', householdId).returning('id').executeTakeFirst();
  if (!row) throw notFound();
}

export async function listIncome(db: Db, householdId: string): Promise<IncomeView[]> {
  const [incomes, members] = await Promise.all([
    readIncomes(db, householdId),
    db.selectFrom('household_members').select(['id', 'full_name']).where('household_id', '=', householdId).execute(),
  ]);
  const names = new Map(members.map((m) => [m.id, m.full_name]));
  return incomes
    .filter((i) => names.has(i.memberId))
    .map((i) => ({
      ...(i.details as IncomeInput),
      id: i.id,
      memberName: names.get(i.memberId)!,
      annualAmount: annualAmount(i.amount, i.frequency),
    }));
}

export const incomeTypes = () => INCOME_TYPES.map((code) => ({ code }));
