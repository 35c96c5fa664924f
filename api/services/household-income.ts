import { annualAmount, INCOME_TYPES, type IncomeInput, type IncomeView, type PayFrequency } from '../../domain';
import type { Db } from '../../infra/db/database';
import { notFound } from '../errors';
import { upsertProfile } from './household-profile';

async function assertMember(db: Db, householdId: string, memberId: string) {
  const m = await db.selectFrom('household_members').select('id').where('id', '=', memberId).where('household_id', '=', householdId).executeTakeFirst();
  if (!m) throw notFound();
}

/** create / CreateOrUpdateIncome / CreateOrUpdateGigEconomy / CreateOrUpdateZeroIncome: one entry, any type. */
export async function saveIncome(db: Db, householdId: string, input: IncomeInput): Promise<IncomeView> {
  await assertMember(db, householdId, input.memberId);
  const { id, ...details } = input;
  const values = {
    member_id: input.memberId,
    income_type: input.incomeType,
    amount: input.amount,
    frequency: input.frequency,
    details: JSON.stringify(details),
    updated_at: new Date(),
  };
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
  const rows = await db
    .selectFrom('household_incomes as i')
    .innerJoin('household_members as m', 'm.id', 'i.member_id')
    .select(['i.id', 'i.details', 'i.amount', 'i.frequency', 'm.full_name'])
    .where('i.household_id', '=', householdId)
    .orderBy('i.created_at')
    .execute();
  return rows.map((r) => ({
    ...(r.details as IncomeInput),
    id: r.id,
    memberName: r.full_name,
    annualAmount: annualAmount(Number(r.amount), r.frequency as PayFrequency),
  }));
}

export const incomeTypes = () => INCOME_TYPES.map((code) => ({ code }));
