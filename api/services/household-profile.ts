import type {
  AdditionalPreferencesInput, AddressInput, EligibilityAssessmentInput, ProfileCompletion, QuestionAnswer,
} from '../../domain';
import type { Db } from '../../infra/db/database';
import { HttpError, unprocessable } from '../errors';
import { isProfileLocked } from '../../infra/db/repositories/profile-locks';
import { listMembers } from './household-members';
import { computeCompletion, refreshCompletion } from '../../infra/db/repositories/profile-completion';

/** The household's single profile row (address, preferences, questions), created on first write. */
export async function upsertProfile(db: Db, householdId: string, set: Record<string, unknown>): Promise<void> {
  const values = { household_id: householdId, updated_at: new Date(), ...set };
  await db
    .insertInto('household_profiles')
    .values(values as never)
    .onConflict((oc) => oc.column('household_id').doUpdateSet({ ...set, updated_at: new Date() } as never))
    .execute();
}

export async function getProfileRow(db: Db, householdId: string) {
  return db.selectFrom('household_profiles').selectAll().where('household_id', '=', householdId).executeTakeFirst();
}

export async function saveAddress(db: Db, householdId: string, address: AddressInput) {
  await upsertProfile(db, householdId, { address: JSON.stringify(address) });
  return address;
}

export async function saveEligibility(db: Db, householdId: string, input: EligibilityAssessmentInput) {
  await upsertProfile(db, householdId, { eligibility: JSON.stringify(input) });
  return input;
}

export async function savePreferences(db: Db, householdId: string, input: AdditionalPreferencesInput) {
  await upsertProfile(db, householdId, { preferences: JSON.stringify(input) });
  return input;
}

/**
 * The income question (spec section 4): answering NO deletes every income entry, after the client
 * has asked the user to confirm. A NO without `confirmed` is refused and deletes nothing.
 */
export async function answerIncomeQuestion(db: Db, householdId: string, { answer, confirmed }: QuestionAnswer) {
  if (!answer && !confirmed) throw new HttpError(409, 'confirmationRequired');
  return db.transaction().execute(async (trx) => {
    let deleted = 0;
    if (!answer) {
      const rows = await trx.deleteFrom('household_incomes').where('household_id', '=', householdId).returning('id').execute();
      deleted = rows.length;
    }
    await upsertProfile(trx, householdId, { has_income: answer });
    return { answer, deleted };
  });
}

/** The profile screen in one read: members, address, questions, preferences and completion. */
export async function loadProfile(db: Db, householdId: string) {
  const [members, row, completion, household, locked] = await Promise.all([
    listMembers(db, householdId),
    getProfileRow(db, householdId),
    computeCompletion(db, householdId),
    db.selectFrom('households').select(['household_size', 'profile_completion']).where('id', '=', householdId).executeTakeFirstOrThrow(),
    isProfileLocked(db, householdId),
  ]);
  return {
    householdId,
    householdSize: household.household_size,
    /** Spec section 4: a confirmed recertification locks the profile against editing. */
    locked,
    members,
    address: row?.address ?? null,
    preferences: row?.preferences ?? null,
    hasIncome: row?.has_income ?? null,
    hasAssets: row?.has_assets ?? null,
    assetFlags: row?.asset_flags ?? {},
    eligibility: row?.eligibility ?? null,
    completedAt: row?.completed_at ?? null,
    submittedAt: row?.submitted_at ?? null,
    completion: { percent: completion.percent, sections: completion.sections, missing: completion.missing } satisfies ProfileCompletion,
  };
}

/** CompleteProfile: allowed only at 100 (spec section 4); records when. */
export async function completeProfile(db: Db, householdId: string) {
  const completion = await refreshCompletion(db, householdId);
  if (completion.percent < 100) throw unprocessable('profileIncomplete');
  await upsertProfile(db, householdId, { completed_at: new Date() });
  return completion;
}

/** FinalProfileSubmission: the complete profile is submitted (idempotent: the first time is kept). */
export async function finalSubmission(db: Db, householdId: string) {
  const completion = await refreshCompletion(db, householdId);
  if (completion.percent < 100) throw unprocessable('profileIncomplete');
  const row = await getProfileRow(db, householdId);
  const submittedAt = row?.submitted_at ?? new Date();
  await upsertProfile(db, householdId, { completed_at: row?.completed_at ?? new Date(), submitted_at: submittedAt });
  return { submittedAt, completion };
}
