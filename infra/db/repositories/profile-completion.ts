import {
  COMPLETION_WEIGHTS, REQUIRED_DOCS_BY_INCOME, householdIncomeProblem, ZERO_INCOME_MESSAGES,
  type CompletionSection, type IncomeType, type ProfileCompletion, type ProfileGap, type RequiredDocItem, type DocumentType,
} from '../../../domain';
import type { Db } from '../database';
import { readIncomes } from './household-income-store';

/**
 * Profile completion computed from what is filled (spec section 4: complete means 100). Sections
 * and weights are in domain/household.ts. The result is stored in `households.profile_completion`
 * (lease-up apply and the dashboard read it) together with the household size.
 */
export async function computeCompletion(db: Db, householdId: string): Promise<ProfileCompletion & { householdSize: number }> {
  const [members, incomes, assets, profile, checklist] = await Promise.all([
    db.selectFrom('household_members').select(['id', 'head_of_household', 'ssn_last4', 'itin_last4', 'alien_number_last4']).where('household_id', '=', householdId).execute(),
    readIncomes(db, householdId),
    db.selectFrom('household_assets').select('id').where('household_id', '=', householdId).execute(),
    db.selectFrom('household_profiles').selectAll().where('household_id', '=', householdId).executeTakeFirst(),
    requiredDocuments(db, householdId),
  ]);
  const missing: ProfileGap[] = [];
  const sections = {} as Record<CompletionSection, boolean>;

  if (members.length === 0) missing.push('noMembers');
  else if (!members.some((m) => m.head_of_household)) missing.push('noHeadOfHousehold');
  if (members.some((m) => !m.ssn_last4 && !m.itin_last4 && !m.alien_number_last4)) missing.push('memberIncomplete');
  sections.members = members.length > 0 && !missing.some((g) => ['noMembers', 'noHeadOfHousehold', 'memberIncomplete'].includes(g));

  const address = profile?.address as { line1?: string; mailingSameAsLiving?: boolean; mailingLine1?: string | null } | null | undefined;
  sections.address = Boolean(address?.line1 && (address.mailingSameAsLiving || address.mailingLine1));
  if (!sections.address) missing.push('noAddress');

  if (profile?.has_income == null) {
    missing.push('incomeQuestionUnanswered');
    sections.income = false;
  } else {
    const problem = householdIncomeProblem(
      members.map((m) => m.id),
      incomes.map((i) => ({ memberId: i.memberId, incomeType: i.incomeType, amount: i.amount })),
    );
    if (problem === ZERO_INCOME_MESSAGES.allZero) missing.push('allZeroIncome');
    else if (problem) missing.push('noValidIncome');
    sections.income = problem === null;
  }

  if (profile?.has_assets == null) missing.push('assetQuestionUnanswered');
  else if (profile.has_assets && assets.length === 0) missing.push('noAssets');
  sections.assets = profile?.has_assets === false || (profile?.has_assets === true && assets.length > 0);

  sections.housingChoices = Boolean(profile?.preferences);
  if (!sections.housingChoices) missing.push('noHousingChoices');

  sections.documents = checklist.some((c) => c.incomeId) && checklist.every((c) => c.uploaded);
  if (checklist.some((c) => c.incomeId && !c.uploaded) || !checklist.some((c) => c.incomeId)) missing.push('documentsMissing');
  if (checklist.some((c) => !c.incomeId && !c.uploaded)) missing.push('memberProofMissing');

  const percent = (Object.keys(COMPLETION_WEIGHTS) as CompletionSection[]).reduce((sum, s) => sum + (sections[s] ? COMPLETION_WEIGHTS[s] : 0), 0);
  return { percent, sections, missing, householdSize: members.length };
}

/** Recomputes and stores the completion and household size; called after every household edit. */
export async function refreshCompletion(db: Db, householdId: string): Promise<ProfileCompletion> {
  const completion = await computeCompletion(db, householdId);
  await db
    .updateTable('households')
    .set({ profile_completion: completion.percent, household_size: Math.max(completion.householdSize, 1) })
    .where('id', '=', householdId)
    .execute();
  const { householdSize: _size, ...rest } = completion;
  return rest;
}

/** Members of the household with a proof document (identity) on file that a manager has not rejected. */
export async function membersWithProof(db: Db, householdId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('household_documents')
    .select('member_id')
    .distinct()
    .where('household_id', '=', householdId)
    .where('document_type', '=', 'identity')
    .where('member_id', 'is not', null)
    .where('blob_key', 'is not', null)
    .where('rejected_by_manager', '=', false)
    .execute();
  return new Set(rows.map((r) => r.member_id!));
}

/** The required-documents checklist (GetRequiredDocs): each income entry's documents, then each member's proof; uploaded when a file on record is not rejected. */
export async function requiredDocuments(db: Db, householdId: string): Promise<RequiredDocItem[]> {
  const [incomes, docs, members] = await Promise.all([
    db
      .selectFrom('household_incomes as i')
      .innerJoin('household_members as m', 'm.id', 'i.member_id')
      .select(['i.id', 'i.income_type', 'i.member_id', 'm.full_name'])
      .where('i.household_id', '=', householdId)
      .orderBy('i.created_at')
      .execute(),
    db
      .selectFrom('household_documents')
      .select(['income_id', 'member_id', 'document_type', 'blob_key', 'rejected_by_manager'])
      .where('household_id', '=', householdId)
      .execute(),
    db.selectFrom('household_members').select(['id', 'full_name']).where('household_id', '=', householdId).orderBy('created_at').execute(),
  ]);
  const onFile = (d: (typeof docs)[number]) => Boolean(d.blob_key) && !d.rejected_by_manager;
  const forIncomes = incomes.flatMap((i) =>
    REQUIRED_DOCS_BY_INCOME[i.income_type as IncomeType].map((documentType: DocumentType) => ({
      incomeId: i.id,
      incomeType: i.income_type as IncomeType,
      memberId: i.member_id,
      memberName: i.full_name,
      documentType,
      uploaded: docs.some((d) => d.income_id === i.id && d.document_type === documentType && onFile(d)),
    })),
  );
  const proofs = members.map((m) => ({
    incomeId: null,
    incomeType: null,
    memberId: m.id,
    memberName: m.full_name,
    documentType: 'identity' as const,
    uploaded: docs.some((d) => d.member_id === m.id && d.document_type === 'identity' && onFile(d)),
  }));
  return [...forIncomes, ...proofs];
}
