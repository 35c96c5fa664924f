import type { Transaction } from 'kysely';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { BlobStore } from './blobs';
import { hasDataKeys, sealJson, sealNumber } from './data-keys';
import type { Database } from './db/database';

/** A one-page pay stub, so the demo household's document opens like an uploaded one. */
export function demoPayStubPdf(employer: string, name: string, amount: number): Promise<Buffer> {
  return onePagePdf([`${employer} - pay stub (demo data)`, `Employee: ${name}`, 'Pay period: two weeks', `Gross pay: $${amount.toFixed(2)}`]);
}

async function onePagePdf(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 396]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, i) => page.drawText(line, { x: 48, y: 330 - i * 28, size: i === 0 ? 16 : 12, font }));
  return Buffer.from(await pdf.save());
}

/**
 * A complete household profile for a demo applicant or tenant: two members, an address,
 * income with its pay stub on record, no assets, housing choices. It meets every section of the
 * completion rule (infra/db/repositories/profile-completion.ts), so the seeded 100% is true.
 * The seed does not hold identifiers, so the demo ones are on record only as their last 4 digits.
 * The income is sealed when the process has its data keys; the pay stub file is written when a blob
 * store is given (npm start, the test stack).
 */
export async function seedHouseholdProfile(
  trx: Transaction<Database>,
  input: { householdId: string; headUserId: string; fullName: string; email: string; spouseName: string; blobs?: BlobStore },
): Promise<void> {
  const now = new Date();
  const common = {
    household_id: input.householdId, gender: 'prefer_not_to_say', races: JSON.stringify(['choose_not_to_provide']), ethnicity: 'not_hispanic_or_latino',
    student_status: 'not_a_student', student_eligibility: 'not_applicable', disability: false, emancipated_minor: false, pregnant: false,
    pregnancy_child_count: null, expected_delivery_date: null, preferred_language: 'en', updated_at: now,
  };
  const head = await trx
    .insertInto('household_members')
    .values({ ...common, full_name: input.fullName, relationship: 'self', date_of_birth: '1978-05-14', marital_status: 'married', ssn_last4: '6789', head_of_household: true, email: input.email, mobile: '2125550142' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const spouse = await trx
    .insertInto('household_members')
    .values({ ...common, full_name: input.spouseName, relationship: 'spouse', date_of_birth: '1980-09-02', marital_status: 'married', itin_last4: '4321', head_of_household: false, email: null, mobile: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const amount = 2000;
  const details = { memberId: head.id, incomeType: 'employment', employerName: 'City Hospital', jobTitle: 'Nurse aide', startDate: '2019-03-01', amount, frequency: 'bi_weekly', sourceName: 'City Hospital', awardLetterDate: null };
  const income = await trx
    .insertInto('household_incomes')
    .values({
      household_id: input.householdId,
      member_id: head.id,
      income_type: 'employment',
      frequency: 'bi_weekly',
      ...(hasDataKeys() ? { amount: null, amount_encrypted: sealNumber(amount), details: sealJson(details) } : { amount, details: JSON.stringify(details) }),
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('household_profiles')
    .values({
      household_id: input.householdId,
      address: JSON.stringify({ line1: '125 W 112th St', line2: 'Apt 4B', city: 'New York', state: 'NY', zip: '10026', mailingSameAsLiving: true, mailingLine1: null, mailingLine2: null, mailingCity: null, mailingState: null, mailingZip: null, communityBoard: 'Manhattan 10' }),
      preferences: JSON.stringify({ interests: { reRental: true, section8: false, supportiveHousing: false, mitchellLama: true, publicHousing: false }, preferredCounties: ['new_york'], unitSize: 'one_bedroom', setAsides: [], accessibility: [], pet: false }),
      has_income: true,
      has_assets: false,
      asset_flags: JSON.stringify({}),
      special_income: JSON.stringify({}),
      completed_at: now,
      updated_at: now,
    })
    .execute();
  const key = `households/${input.householdId}/documents/demo-pay-stub`;
  const pdf = await demoPayStubPdf('City Hospital', input.fullName, amount);
  // The file first: a document row never points at a file that was not written.
  if (input.blobs) await input.blobs.put(key, pdf, 'application/pdf');
  await trx
    .insertInto('household_documents')
    .values({
      household_id: input.householdId, member_id: head.id, income_id: income.id, document_type: 'pay_stub', file_name: 'pay-stub.pdf',
      blob_key: key, content_type: 'application/pdf', size_bytes: pdf.length, uploaded_by: input.headUserId,
      uploaded_at: now, review_reason: null, rejection_reason: null, discrepancy_reason: null, replaces_document_id: null,
    })
    .execute();
  // Each member's proof document (section 5 requires one per member).
  for (const [memberId, name] of [[head.id, input.fullName], [spouse.id, input.spouseName]] as const) {
    const proofKey = `households/${input.householdId}/documents/demo-proof-${memberId}`;
    const proof = await onePagePdf(['Proof of identity (demo data)', name]);
    if (input.blobs) await input.blobs.put(proofKey, proof, 'application/pdf');
    await trx
      .insertInto('household_documents')
      .values({
        household_id: input.householdId, member_id: memberId, income_id: null, document_type: 'identity', file_name: 'proof-of-identity.pdf',
        blob_key: proofKey, content_type: 'application/pdf', size_bytes: proof.length, uploaded_by: input.headUserId,
        uploaded_at: now, review_reason: null, rejection_reason: null, discrepancy_reason: null, replaces_document_id: null,
      })
      .execute();
  }
}

