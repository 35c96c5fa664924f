import { openNumber, sealNumber } from '../../data-keys';

/**
 * The household income declared when applying (`applications`): sealed like income entries. Lists,
 * the lottery's invitations and a case's view read it through `declaredIncomeOf`, after the row is
 * chosen: nothing filters or sorts by the figure in SQL, so no plain band is kept beside it.
 */
export function declaredIncomeColumns(value: number): { household_income: null; household_income_encrypted: string } {
  return { household_income: null, household_income_encrypted: sealNumber(value) };
}

/** The declared income of an application row: sealed, else the plain legacy value (rows before sealing), else 0 (purged). */
export function declaredIncomeOf(row: { household_income_encrypted: string | null; household_income: string | number | null }): number {
  return openNumber(row.household_income_encrypted, row.household_income) ?? 0;
}
