import { MEMBER_MESSAGES, MemberInput, ageOn, normalizeIdentifier, todayIso, type MemberView } from '../../domain';
import { createFieldCipher, lastFour, type KeyRing } from '../../infra/crypto';
import { recordIssuedSecret } from '../../infra/secret-ledger';
import type { Db } from '../../infra/db/database';
import { membersWithProof } from '../../infra/db/repositories/profile-completion';
import type { HouseholdMemberTable } from '../../infra/db/schema/household';
import type { Selectable } from 'kysely';
import { HttpError, notFound } from '../errors';

type MemberRow = Selectable<HouseholdMemberTable>;
type Fields = Omit<MemberInput, 'ssn' | 'itin' | 'alienRegistrationNumber' | 'identifierOnFile'>;

export function toMemberView(row: MemberRow, proofOnFile: boolean, today = todayIso()): MemberView {
  return {
    id: row.id,
    fullName: row.full_name,
    relationship: row.relationship as MemberView['relationship'],
    dateOfBirth: row.date_of_birth,
    gender: row.gender as MemberView['gender'],
    ssnLast4: row.ssn_last4,
    itinLast4: row.itin_last4,
    alienRegistrationNumberLast4: row.alien_number_last4,
    proofOnFile,
    races: row.races as MemberView['races'],
    ethnicity: row.ethnicity as MemberView['ethnicity'],
    maritalStatus: row.marital_status as MemberView['maritalStatus'],
    disability: row.disability,
    studentStatus: row.student_status as MemberView['studentStatus'],
    studentEligibility: row.student_eligibility as MemberView['studentEligibility'],
    emancipatedMinor: row.emancipated_minor,
    pregnant: row.pregnant,
    pregnancyChildCount: row.pregnancy_child_count ?? undefined,
    expectedDeliveryDate: row.expected_delivery_date,
    headOfHousehold: row.head_of_household,
    email: row.email,
    mobile: row.mobile,
    preferredLanguage: row.preferred_language as MemberView['preferredLanguage'],
    age: ageOn(row.date_of_birth, today),
  };
}

function columns(m: Fields) {
  return {
    full_name: m.fullName,
    relationship: m.relationship,
    date_of_birth: m.dateOfBirth,
    gender: m.gender,
    races: JSON.stringify(m.races),
    ethnicity: m.ethnicity,
    marital_status: m.maritalStatus,
    disability: m.disability,
    student_status: m.studentStatus,
    student_eligibility: m.studentEligibility,
    emancipated_minor: m.emancipatedMinor,
    pregnant: m.pregnant,
    pregnancy_child_count: m.pregnant ? (m.pregnancyChildCount ?? null) : null,
    expected_delivery_date: m.pregnant ? m.expectedDeliveryDate : null,
    head_of_household: m.headOfHousehold,
    email: m.email,
    mobile: m.mobile,
    preferred_language: m.preferredLanguage,
    updated_at: new Date(),
  };
}

/** Encrypted identifier columns for the numbers given; numbers not given keep what is on file. */
function identifierColumns(key: KeyRing | string, m: Pick<MemberInput, 'ssn' | 'itin' | 'alienRegistrationNumber'>) {
  const cipher = createFieldCipher(key);
  const out: Record<string, string> = {};
  const put = (kind: 'ssn' | 'itin' | 'alienRegistrationNumber', col: string) => {
    const value = m[kind];
    if (!value) return;
    const normalized = normalizeIdentifier(kind, value);
    recordIssuedSecret(kind, normalized);
    out[`${col}_encrypted`] = cipher.encrypt(normalized);
    out[`${col}_last4`] = lastFour(normalized);
  };
  put('ssn', 'ssn');
  put('itin', 'itin');
  put('alienRegistrationNumber', 'alien_number');
  return out;
}

async function assertOneApplicant(db: Db, householdId: string, m: Fields, exceptId: string | null) {
  if (m.relationship !== 'self' && !m.headOfHousehold) return;
  const others = await db
    .selectFrom('household_members')
    .select(['id', 'relationship', 'head_of_household'])
    .where('household_id', '=', householdId)
    .execute();
  const clash = others.filter((o) => o.id !== exceptId);
  if (m.relationship === 'self' && clash.some((o) => o.relationship === 'self')) {
    throw new HttpError(422, 'validation', 'The household already has an applicant (relationship Self)');
  }
  if (m.headOfHousehold && clash.some((o) => o.head_of_household)) {
    throw new HttpError(422, 'validation', 'The household already has a head of household');
  }
}

/** CreateApplicantOrMember. The body was parsed by MemberInput (route schema); here the household rules. */
export async function createMember(db: Db, key: KeyRing | string, householdId: string, input: MemberInput): Promise<MemberView> {
  if (!input.ssn && !input.itin && !input.alienRegistrationNumber) throw new HttpError(422, 'validation', MEMBER_MESSAGES.identifierRequired);
  await assertOneApplicant(db, householdId, input, null);
  const row = await db
    .insertInto('household_members')
    .values({ household_id: householdId, ...columns(input), ...identifierColumns(key, input) })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMemberView(row, false);
}

/** UpdateApplicantOrMember: identifiers left blank keep the ones on file (only their last 4 are ever shown). */
export async function updateMember(db: Db, key: KeyRing | string, householdId: string, memberId: string, raw: unknown): Promise<MemberView> {
  const existing = await db.selectFrom('household_members').selectAll().where('id', '=', memberId).where('household_id', '=', householdId).executeTakeFirst();
  if (!existing) throw notFound();
  const onFile = Boolean(existing.ssn_last4 || existing.itin_last4 || existing.alien_number_last4);
  const parsed = MemberInput.safeParse({ ...(raw as object), identifierOnFile: onFile });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HttpError(400, 'validation', issue.message);
  }
  await assertOneApplicant(db, householdId, parsed.data, memberId);
  const row = await db
    .updateTable('household_members')
    .set({ ...columns(parsed.data), ...identifierColumns(key, parsed.data) })
    .where('id', '=', memberId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMemberView(row, (await membersWithProof(db, householdId)).has(memberId));
}

export async function deleteMember(db: Db, householdId: string, memberId: string): Promise<void> {
  const row = await db.deleteFrom('household_members').where('id', '=', memberId).where('household_id', '=', householdId).returning('id').executeTakeFirst();
  if (!row) throw notFound();
}

export async function listMembers(db: Db, householdId: string): Promise<MemberView[]> {
  const [rows, proofs] = await Promise.all([
    db.selectFrom('household_members').selectAll().where('household_id', '=', householdId).orderBy('created_at').execute(),
    membersWithProof(db, householdId),
  ]);
  return rows.map((r) => toMemberView(r, proofs.has(r.id)));
}
