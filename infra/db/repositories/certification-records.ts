import type { CertifiedFacts } from '../../../domain';
import type { Db } from '../database';
import { openJson, sealJson } from '../../data-keys';
import { certificationFacts } from './certification-facts';

/** The facts the case file shows and compares, read now (the same reader as the TIC). */
export async function certifiedFactsOf(db: Db, householdId: string, asOf: string): Promise<CertifiedFacts> {
  const f = await certificationFacts(db, householdId, asOf);
  return { householdSize: f.householdSize, members: f.members, incomes: f.incomes, assets: f.assets, totalIncome: f.totalIncome, assetIncome: f.assetIncome };
}

/**
 * Keeps what an approved recertification certified, sealed because it holds incomes, so
 * the next cycle's review shows what changed. Written by the case's projection once the view says
 * approved: the profile was locked until the approval, so the household's data is what was signed.
 * Once per case: a projection repeated (or retried) keeps the first record.
 */
export async function recordCertification(db: Db, c: { caseId: string; householdId: string; approvedAt: string }): Promise<void> {
  const facts = await certifiedFactsOf(db, c.householdId, c.approvedAt.slice(0, 10));
  await db
    .insertInto('certification_records')
    .values({ case_id: c.caseId, household_id: c.householdId, approved_at: c.approvedAt, facts_sealed: sealJson(facts) })
    .onConflict((oc) => oc.column('case_id').doNothing())
    .execute();
}

/** The household's last approved certification other than `exceptCaseId` (the case under review), or null. */
export async function lastCertification(db: Db, householdId: string, exceptCaseId: string): Promise<{ approvedAt: string; facts: CertifiedFacts } | null> {
  const row = await db
    .selectFrom('certification_records')
    .select(['approved_at', 'facts_sealed'])
    .where('household_id', '=', householdId)
    .where('case_id', '!=', exceptCaseId)
    .orderBy('approved_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return { approvedAt: new Date(row.approved_at).toISOString(), facts: openJson<CertifiedFacts>(JSON.parse(row.facts_sealed)) };
}
