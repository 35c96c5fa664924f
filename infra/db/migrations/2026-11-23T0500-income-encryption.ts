import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/**
 * Income amounts encrypted at rest. Each income entry keeps its amount in
 * `amount_encrypted` (AES-256-GCM with a key id, written by the API) and its fields in `details` as a
 * sealed JSON value; the plain `amount` column stays, nullable, only for rows written before this
 * migration until the API's start-up sweep or `npm run keys:rotate` seals them. The totals view summed
 * plain amounts, so totals are now computed by the API after decrypting. Same for a tenancy's declared
 * income.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop view if exists household_income_totals`.execute(db);
  await db.schema.alterTable('household_incomes').addColumn('amount_encrypted', 'text').execute();
  await db.schema.alterTable('household_incomes').alterColumn('amount', (c) => c.dropNotNull()).execute();
  await db.schema.alterTable('tenancies').addColumn('declared_annual_income_encrypted', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Sealed rows cannot be turned back into plain numbers here (no key): their amount becomes 0.
  await sql`update household_incomes set amount = 0 where amount is null`.execute(db);
  await db.schema.alterTable('tenancies').dropColumn('declared_annual_income_encrypted').execute();
  await db.schema.alterTable('household_incomes').alterColumn('amount', (c) => c.setNotNull()).execute();
  await db.schema.alterTable('household_incomes').dropColumn('amount_encrypted').execute();
  await sql`create view household_income_totals as
    select household_id, sum(amount * case frequency
      when 'monthly' then 12 when 'hourly' then 2080 when 'quarterly' then 4 when 'bi_weekly' then 26
      when 'weekly' then 52 when 'semimonthly' then 24 else 1 end)::numeric(14,2) as annual_total
    from household_incomes where income_type <> 'zero_income' group by household_id`.execute(db);
}
