import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialLeaseUpState, leaseUpView, type Language, type LeaseUpView } from '../../domain';
import { generateLeaseUpLetter, signLeaseUpLetter } from '../../activities/lease-up';
import { generateRecertificationTic, signRecertificationTic } from '../../activities/recertification';
import { LETTER_TEXT } from '../../infra/letters/text';
import { EncryptingBlobStore, S3BlobStore, type BlobStore } from '../../infra/blobs';
import { keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { sealedIncomeColumns } from '../../infra/db/repositories/household-income-store';
import { seedDemoData } from '../../infra/seed';
import { createTestDatabase, testConfig } from '../helpers/stack';

// A 1x1 PNG: a real image, as the signature pad sends.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const LANGUAGES: Language[] = ['en', 'es', 'zh', 'bn'];

/**
 * The PDF's text as poppler's pdftotext reads it (it honours ActualText, so Bengali reads as written),
 * with line breaks as spaces: a long sentence wraps onto two lines of the page.
 */
function pdfText(pdf: Buffer, pages?: { first: number; last: number }): string {
  const range = pages ? ['-f', String(pages.first), '-l', String(pages.last)] : [];
  return execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', ...range, '-', '-'], { input: pdf }).toString('utf8').normalize('NFC').replace(/\s+/g, ' ');
}
const pageCount = (pdf: Buffer) => Number(execFileSync('pdfinfo', ['-'], { input: pdf }).toString().match(/Pages:\s+(\d+)/)![1]);

describe('letters in every language with every name as written (real PostgreSQL and MinIO)', () => {
  let db: Db;
  let blobs: BlobStore;
  let s3: S3BlobStore;
  let householdId: string;
  let headUserId: string;
  let view: LeaseUpView;
  const names = { head: 'José Núñez', spouse: '陈伟', adult: 'আমিনা রহমান' };
  const memberIds: Record<string, string> = {};
  let rent = '';

  beforeAll(async () => {
    const created = await createTestDatabase();
    db = created.db;
    const config = testConfig(created.url);
    useDataKeys(keyRingFromConfig(config));
    s3 = new S3BlobStore({ bucket: config.S3_BUCKET!, region: config.S3_REGION, endpoint: config.S3_ENDPOINT, accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY, forcePathStyle: true });
    await s3.ensureBucket();
    blobs = new EncryptingBlobStore(s3, keyRingFromConfig(config));
    await seedDemoData(db, new Date('2026-11-01T00:00:00Z'));
    const opportunity = await db.selectFrom('opportunities').selectAll().where('kind', '=', 'rental').orderBy('name').executeTakeFirstOrThrow();
    const unit = await db.selectFrom('units').selectAll().where('opportunity_id', '=', opportunity.id).executeTakeFirstOrThrow();
    rent = `$${Number(unit.monthly_rent).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    const user = await db
      .insertInto('users')
      .values({ username: `jose-${randomUUID().slice(0, 8)}`, email: `jose-${randomUUID().slice(0, 8)}@example.org`, first_name: 'José', last_name: 'Núñez', role: 'User', password_hash: 'unused', preferred_language: 'en' })
      .returning('id')
      .executeTakeFirstOrThrow();
    headUserId = user.id;
    householdId = (await db.insertInto('households').values({ head_user_id: headUserId, household_size: 3, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow()).id;
    const common = {
      household_id: householdId, gender: 'prefer_not_to_say', races: JSON.stringify(['choose_not_to_provide']), ethnicity: 'not_hispanic_or_latino',
      student_status: 'not_a_student', student_eligibility: 'not_applicable', disability: false, emancipated_minor: false, pregnant: false, marital_status: 'married', preferred_language: 'en', updated_at: new Date(),
    };
    for (const [key, values] of [
      ['head', { full_name: names.head, relationship: 'self', date_of_birth: '1980-03-02', head_of_household: true, created_at: new Date('2026-01-01T00:00:00Z') }],
      ['spouse', { full_name: names.spouse, relationship: 'spouse', date_of_birth: '1982-07-15', head_of_household: false, disability: true, created_at: new Date('2026-01-02T00:00:00Z') }],
      ['adult', { full_name: names.adult, relationship: 'other_adult_member', date_of_birth: '2004-01-20', head_of_household: false, student_status: 'full_time', marital_status: 'single', created_at: new Date('2026-01-03T00:00:00Z') }],
    ] as const) {
      memberIds[key] = (await db.insertInto('household_members').values({ ...common, ...values }).returning('id').executeTakeFirstOrThrow()).id;
    }
    // 2,000 bi-weekly = 52,000; 1,250 monthly = 15,000; 18.50 hourly = 38,480: 105,480 a year.
    const incomes = [
      { memberId: memberIds.head!, incomeType: 'employment', amount: 2000, frequency: 'bi_weekly', sourceName: 'City Hospital', employerName: 'City Hospital', jobTitle: 'Nurse aide', startDate: '2019-03-01', awardLetterDate: null },
      { memberId: memberIds.spouse!, incomeType: 'social_security', amount: 1250, frequency: 'monthly', sourceName: 'SSA', awardLetterDate: null },
      { memberId: memberIds.adult!, incomeType: 'employment', amount: 18.5, frequency: 'hourly', sourceName: 'Library', employerName: 'Library', jobTitle: 'Clerk', startDate: '2025-09-01', awardLetterDate: null },
    ];
    for (const income of incomes) await db.insertInto('household_incomes').values({ household_id: householdId, ...sealedIncomeColumns(income as never) }).execute();
    await db
      .insertInto('household_assets')
      .values({ household_id: householdId, member_id: memberIds.head!, kind: 'BankAccounts', details: JSON.stringify({ memberId: memberIds.head, kind: 'BankAccounts', accountType: 'savings', institution: 'Credit Union', last4: '1234', balance: 4200, annualIncome: 35.5 }), updated_at: new Date() })
      .execute();
    await db
      .insertInto('tenancies')
      .values({ household_id: householdId, organization_id: opportunity.organization_id, building_name: 'Riverside Commons', address: '410 Riverside Dr, New York, NY 10025', unit_number: '7C', bedrooms: '2 bedrooms', lease_start: '2025-12-01', monthly_rent: 1450 })
      .execute();
    const state = initialLeaseUpState(
      { applicationId: randomUUID(), householdId, opportunityId: opportunity.id, organizationId: opportunity.organization_id, applicantUserId: headUserId, householdSize: 3, householdIncome: 105_480 },
      '2026-11-10T10:00:00.000Z',
    );
    const base = leaseUpView(state, Date.parse(state.updatedAt));
    view = {
      ...base,
      logNumber: 'LU-000123',
      offers: [{ offerId: randomUUID(), unitId: unit.id, unitNumber: unit.unit_number, bedroomType: unit.bedroom_type, address: unit.address, offeredAt: state.updatedAt, expiresAt: state.updatedAt, status: 'accepted', respondedAt: state.updatedAt }],
    };
  });
  afterAll(async () => {
    s3?.destroy();
    await db?.destroy();
  });

  const speak = (language: Language) => db.updateTable('household_members').set({ preferred_language: language }).where('id', '=', memberIds.head!).execute();
  const read = async (key: string) => (await blobs.get(key))!.body;
  const expectFigures = (text: string, figures: string[]) => {
    for (const figure of figures) expect(text).toContain(figure);
  };

  for (const language of LANGUAGES) {
    it(`lease-up TIC and lease letter in ${language}: names and income figures read back with pdftotext`, async () => {
      await speak(language);
      const w = LETTER_TEXT[language];
      const tic = pdfText(await read(await generateLeaseUpLetter(db, blobs, { kind: 'tic', view: { ...view, version: LANGUAGES.indexOf(language) + 1 } })));
      expect(tic).toContain(w.ticTitle);
      for (const name of Object.values(names)) expect(tic).toContain(name);
      // Each source annualised, the total, asset income, the rent of the accepted unit and the AMI band.
      expectFigures(tic, ['$52,000.00', '$15,000.00', '$38,480.00', '$105,480.00', '$4,200.00', '$35.50', rent, '% AMI']);
      expect(tic).toContain(w.certifyStatement);
      const lease = pdfText(await read(await generateLeaseUpLetter(db, blobs, { kind: 'lease', view: { ...view, version: 10 + LANGUAGES.indexOf(language) } })));
      expect(lease).toContain(w.leaseTitle);
      for (const name of Object.values(names)) expect(lease).toContain(name);
      expectFigures(lease, ['$105,480.00', rent]);
    });

    it(`recertification TIC in ${language}: names, figures, unit and rent of the tenancy`, async () => {
      await speak(language);
      const caseId = randomUUID();
      const signers = [
        { id: headUserId, name: names.head, isHead: true },
        { id: memberIds.spouse!, name: names.spouse, isHead: false },
        { id: memberIds.adult!, name: names.adult, isHead: false },
      ];
      const { key } = await generateRecertificationTic(db, blobs, { caseId, householdId, signers, deadline: '2026-12-01' });
      const text = pdfText(await read(key));
      expect(text).toContain(LETTER_TEXT[language].recertTicTitle);
      for (const name of Object.values(names)) expect(text).toContain(name);
      expectFigures(text, ['$52,000.00', '$15,000.00', '$38,480.00', '$105,480.00', '$1,450.00', '7C', '2026-12-01']);
    });
  }

  it('a signed letter: the signature page holds each signer’s name and time, the signed copy’s SHA-256 is kept with the case', async () => {
    await speak('bn');
    const letterKey = await generateLeaseUpLetter(db, blobs, { kind: 'tic', view: { ...view, version: 40 } });
    const signatureKey = `applications/${view.applicationId}/signatures/${randomUUID()}.png`;
    await blobs.put(signatureKey, PNG, 'image/png');
    const first = await signLeaseUpLetter(db, blobs, { letterKey, signatureKey, signerName: names.head, ipAddress: '203.0.113.7', signedAt: '2026-11-12T15:04:05.000Z', userId: headUserId });
    const second = await signLeaseUpLetter(db, blobs, { letterKey: first, signatureKey, signerName: names.adult, ipAddress: '203.0.113.8', signedAt: '2026-11-12T15:09:00.000Z', userId: memberIds.adult! });
    const signed = await read(second);
    const last = pageCount(signed);
    const signaturePage = pdfText(signed, { first: last, last });
    expect(signaturePage).toContain(LETTER_TEXT.bn.signatures);
    expect(signaturePage).toContain(`${names.head} 2026-11-12T15:04:05.000Z তারিখে IP 203.0.113.7 থেকে স্বাক্ষর করেছেন`);
    expect(signaturePage).toContain(`${names.adult} 2026-11-12T15:09:00.000Z তারিখে IP 203.0.113.8 থেকে স্বাক্ষর করেছেন`);
    // The unsigned letter has no stamp: the signatures are on the signed copies only.
    expect(pdfText(await read(letterKey))).not.toContain('203.0.113.7');
    const rows = await db.selectFrom('signed_letters').selectAll().where('case_id', '=', view.applicationId).orderBy('signed_at').execute();
    expect(rows.map((r) => [r.signed_key, r.letter, r.signer_id])).toEqual([
      [first, 'tic', headUserId],
      [second, 'tic', memberIds.adult],
    ]);
    expect(rows[1]!.sha256).toBe(createHash('sha256').update(signed).digest('hex'));
  });

  it('the recertification TIC is signed on its signature page, each signer on the copy the others signed', async () => {
    await speak('zh');
    const caseId = randomUUID();
    const signers = [
      { id: headUserId, name: names.head, isHead: true },
      { id: memberIds.spouse!, name: names.spouse, isHead: false },
    ];
    const { key } = await generateRecertificationTic(db, blobs, { caseId, householdId, signers, deadline: '2026-12-01' });
    const signatureKey = `recertification/${caseId}/signatures/${headUserId}.png`;
    await blobs.put(signatureKey, PNG, 'image/png');
    const head = await signRecertificationTic(db, blobs, { caseId, letterKey: key, signatureKey, signerId: headUserId, signerName: names.head, signedAt: '2026-11-20T09:00:00.000Z', ipAddress: '198.51.100.4' });
    const spouse = await signRecertificationTic(db, blobs, { caseId, letterKey: head.key, signatureKey, signerId: memberIds.spouse!, signerName: names.spouse, signedAt: '2026-11-20T09:30:00.000Z', ipAddress: '' });
    const signed = await read(spouse.key);
    const last = pageCount(signed);
    const page = pdfText(signed, { first: last, last });
    expect(page).toContain(`${names.head} 于 2026-11-20T09:00:00.000Z 从 IP 198.51.100.4 签名`);
    expect(page).toContain(`${names.spouse} 于 2026-11-20T09:30:00.000Z 从 IP 未知 签名`);
    expect(spouse.sha256).toBe(createHash('sha256').update(signed).digest('hex'));
    const row = await db.selectFrom('signed_letters').select(['sha256', 'case_kind']).where('signed_key', '=', spouse.key).executeTakeFirstOrThrow();
    expect(row).toEqual({ sha256: spouse.sha256, case_kind: 'recertification' });
  });
});
