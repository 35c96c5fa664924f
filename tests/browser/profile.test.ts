/**
 * Browser test of the household profile: a new applicant fills the household (two members, income,
 * a bank account, an upload, address, housing choices) to 100% complete in the built web app, on the
 * real stack (API + PostgreSQL + MinIO), with the shared schemas validating the forms.
 */
import { certificationFacts } from '../../infra/db/repositories/certification-facts';
import { openIncome } from '../../infra/db/repositories/household-income-store';
import { mkdir } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { tinyPdf } from '../helpers/household';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);
let browser: Browser;
let stack: Stack;
const username = `profile-${randomUUID().slice(0, 8)}`;
const password = 'Profile#2026-test';

beforeAll(async () => {
  stack = await startStack({ listen: true });
  await stack.db
    .insertInto('users')
    .values({ username, email: `${username}@example.org`, first_name: 'Rosa', last_name: 'Diaz', role: 'User', password_hash: await hash(password), organization_id: null, email_verified: true })
    .execute();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

type Member = { name: string; relationship: string; dob: string; gender: string; ssn?: string; itin?: string; head: boolean; email?: string; language?: string };

async function fillMember(page: Page, m: Member) {
  await page.getByRole('button', { name: 'Add member' }).click();
  await page.getByLabel('Full name').fill(m.name);
  await page.getByLabel('Relationship to applicant').selectOption({ label: m.relationship });
  await page.getByLabel('Date of birth').fill(m.dob);
  await page.getByLabel('Gender').selectOption({ label: m.gender });
  if (m.ssn) await page.getByLabel('Social Security number (SSN)').fill(m.ssn);
  if (m.itin) await page.getByLabel('ITIN', { exact: true }).fill(m.itin);
  await page.getByLabel('Asian', { exact: true }).check();
  await page.getByLabel('Ethnicity').selectOption({ label: 'Not Hispanic or Latino' });
  await page.getByLabel('Marital status').selectOption({ label: 'Married' });
  await page.getByLabel('Student status').selectOption({ label: 'Not a student' });
  await page.getByLabel('Student eligibility').selectOption({ label: 'Not applicable' });
  if (m.head) await page.getByLabel('Head of household', { exact: true }).check();
  if (m.email) await page.getByLabel('Email').fill(m.email);
  if (m.language) await page.getByLabel('Preferred language').selectOption({ label: m.language });
}

async function addMember(page: Page, m: Member) {
  await fillMember(page, m);
  // Section 5: a member is not saved without a proof document.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByLabel('Proof document').and(page.locator('[aria-invalid="true"]')).waitFor();
  expect(await page.getByRole('alert').allTextContents()).toContain('Required');
  await page.getByLabel('Proof document').setInputFiles({ name: `id-${m.name}.pdf`, mimeType: 'application/pdf', buffer: tinyPdf() });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('heading', { name: m.name }).waitFor();
}

describe('household profile in the browser', () => {
  it('fills a household to 100% complete', async () => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    onTestFailed(async () => {
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL(`profile-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
    });

    // The lookups are read once for the whole profile, and a code the agency retired is not offered.
    await stack.db.updateTable('lookups').set({ active: false }).where('category', '=', 'gender').where('code', '=', 'prefer_not_to_say').execute();
    let lookupReads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/Lookups') lookupReads++;
    });
    await page.goto('/login');
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await expect.poll(() => page.getByTestId('completion').textContent()).toBe('0% complete');

    // The shared schema refuses an under-age applicant before anything is sent.
    await fillMember(page, { name: 'Too Young', relationship: 'Self (applicant)', dob: `${new Date().getUTCFullYear() - 15}-01-01`, gender: 'Female', ssn: '123-45-6789', head: false, email: 'young@example.org' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Applicant must be at least 18 years old').waitFor();
    await expect.poll(() => page.getByLabel('Gender').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['', 'male', 'female']);
    await page.getByRole('button', { name: 'Cancel' }).click();

    // The head reads Spanish: chosen on the screen, it is the language of the household's TIC and lease letters.
    await addMember(page, { name: 'Rosa Diaz', relationship: 'Self (applicant)', dob: '1975-03-09', gender: 'Female', ssn: '123-45-6789', head: true, email: 'rosa@example.org', language: 'Español' });
    const rosas = await stack.db.selectFrom('households').innerJoin('users', 'users.id', 'households.head_user_id').select('households.id').where('users.username', '=', username).executeTakeFirstOrThrow();
    expect((await certificationFacts(stack.db, rosas.id, '2026-06-01')).language).toBe('es');
    expect(lookupReads).toBe(1);
    await addMember(page, { name: 'Tomas Diaz', relationship: 'Spouse', dob: '1973-11-20', gender: 'Male', itin: '912-70-1234', head: false });

    const incomeQuestion = page.getByRole('group', { name: 'Does anyone in your household have income?' });
    await incomeQuestion.getByLabel('Yes').click();
    await expect.poll(() => incomeQuestion.getByLabel('Yes').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Add income' }).click();
    await page.getByLabel('Amount ($)', { exact: true }).fill('2,100');
    await page.getByLabel('How often', { exact: true }).selectOption({ label: 'Every two weeks' });
    await page.getByLabel('Employer name').fill('Bronx Bakery');
    await page.getByLabel('Start date').fill('2021-06-01');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Rosa Diaz: Employment').waitFor();
    // Self-employment keeps its tax return years (up to 3) and the link to the 1099 form.
    await page.getByRole('button', { name: 'Add income' }).click();
    await page.getByLabel('Income type', { exact: true }).selectOption({ label: 'Self-employment or business' });
    await page.getByLabel('Amount ($)', { exact: true }).fill('9,000');
    await page.getByLabel('How often', { exact: true }).selectOption({ label: 'Annually' });
    await page.getByLabel('Business name').fill('Diaz Tailoring');
    await page.getByLabel('Year 1', { exact: true }).fill('2025');
    await page.getByLabel('Year 2', { exact: true }).fill('2024');
    await page.getByLabel('Link to the 1099 form').fill('https://example.org/1099/diaz-2025.pdf');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Rosa Diaz: Self-employment or business').waitFor();
    await expect
      .poll(async () => (await stack.db.selectFrom('household_incomes').selectAll().where('income_type', '=', 'self_employment').execute()).map((r) => openIncome(r as never).details))
      .toEqual([expect.objectContaining({ taxReturnYears: [2025, 2024], form1099Url: 'https://example.org/1099/diaz-2025.pdf' })]);
    const selfEmployed = page.getByRole('listitem').filter({ hasText: 'Rosa Diaz: Self-employment or business' });
    await selfEmployed.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => selfEmployed.getByLabel('Year 1', { exact: true }).inputValue()).toBe('2025');
    await selfEmployed.getByRole('button', { name: 'Cancel' }).click();
    // Taken out again: its own documents would stand between this household and 100%.
    await selfEmployed.getByRole('button', { name: 'Delete' }).click();
    await selfEmployed.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Assets' }).click();
    const assetQuestion = page.getByRole('group', { name: 'Does anyone in your household have assets?' });
    await assetQuestion.getByLabel('Yes').click();
    await expect.poll(() => assetQuestion.getByLabel('Yes').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Add asset' }).click();
    await page.getByLabel('Account type').selectOption({ label: 'Savings' });
    await page.getByLabel('Financial institution').fill('Ponce Bank');
    await page.getByLabel('Last 4 digits').fill('12a4');
    await page.getByLabel('Balance ($)').fill('1500');
    await page.getByLabel('Annual interest or income ($)').fill('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Enter the last 4 digits (numbers only)').waitFor();
    await page.getByLabel('Last 4 digits').fill('1234');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Ponce Bank ••••1234').waitFor();
    // Answering No asks first; keeping the entries changes nothing.
    await assetQuestion.getByLabel('No', { exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete every entry?' }).getByRole('button', { name: 'Keep them' }).click();
    await page.getByText('Ponce Bank ••••1234').waitFor();
    // Section 7's per-kind questions, each saved through its own flag route.
    await page.getByRole('group', { name: 'Does anyone in your household have a trust?' }).getByLabel('No', { exact: true }).click();
    await page.getByRole('group', { name: 'Does anyone in your household have life insurance?' }).getByLabel('Yes').click();
    await expect
      .poll(async () => (await stack.db.selectFrom('household_profiles').select('asset_flags').where('household_id', '=', rosas.id).executeTakeFirst())?.asset_flags)
      .toMatchObject({ TrustAssets: false, LifeInsuranceAssets: true });
    await expect.poll(() => page.getByRole('group', { name: 'Does anyone in your household have an EBT card?' }).getByLabel('Yes').isChecked()).toBe(false);

    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByLabel('Document for').selectOption({ label: 'Rosa Diaz: Pay stub' });
    await page.getByLabel('Employer name on the pay stub (optional)').fill('Bronx Bakery & Cafe');
    await page.getByLabel(/^Files/).setInputFiles({ name: 'pay-stub.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
    // Section 5: each pay stub carries its pay date (the last 6 consecutive); this one is recent.
    await page.getByLabel('Pay date on pay-stub.pdf').fill(new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    // The two members' proof documents and the pay stub.
    await page.getByText('Documents on file: 3').waitFor();
    // Section 5: the pay stub names another employer, so the household is asked whether to update it.
    await page.getByRole('dialog', { name: 'Update the employer name?' }).getByRole('button', { name: 'Yes, update it' }).click();
    await page.getByRole('dialog', { name: 'Update the employer name?' }).waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await stack.db.selectFrom('household_incomes').selectAll().where('income_type', '=', 'employment').execute()).map((r) => (openIncome(r as never).details as { employerName?: string }).employerName))
      .toContain('Bronx Bakery & Cafe');

    await page.getByLabel('Address line 1', { exact: true }).fill('77 Grand Concourse');
    await page.getByLabel('City', { exact: true }).fill('Bronx');
    await page.getByLabel('State', { exact: true }).fill('NY');
    await page.getByLabel('ZIP code', { exact: true }).fill('10451');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByLabel('Section 8').check();
    await page.getByRole('button', { name: 'Save housing choices' }).click();

    await expect.poll(() => page.getByTestId('completion').textContent(), { timeout: 15_000 }).toBe('100% complete');
    const row = await stack.db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select(['h.profile_completion', 'h.household_size']).where('u.username', '=', username).executeTakeFirstOrThrow();
    expect(row).toEqual({ profile_completion: 100, household_size: 2 });

    // The manager of the household's organisation rejects the pay stub; My Documents shows it and the
    // household answers with a reason and a new file (the reason is required, as the spec says).
    const household = await stack.db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select('h.id').where('u.username', '=', username).executeTakeFirstOrThrow();
    const org = await stack.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    await stack.db.updateTable('households').set({ organization_id: org.id }).where('id', '=', household.id).execute();
    const manager = await signIn(stack.app, 'Manager');
    const doc = await stack.db.selectFrom('household_documents').select('id').where('household_id', '=', household.id).where('document_type', '=', 'pay_stub').executeTakeFirstOrThrow();
    const rejected = await stack.app.inject({ method: 'PUT', url: '/api/Document/ManagerReview', headers: manager, payload: { householdId: household.id, documentId: doc.id, rejected: true, rejectionReason: 'Page 2 missing' } });
    expect(rejected.statusCode).toBe(200);

    await page.getByRole('link', { name: 'My Documents', exact: true }).click();
    await page.getByLabel('Search documents').fill('pay-stub');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Rejected: Page 2 missing').waitFor();
    await page.getByRole('button', { name: 'Answer the review' }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Please provide a reason.').waitFor();
    await page.getByLabel('Reason', { exact: true }).fill('Both pages attached now');
    await page.getByLabel(/^New file/).setInputFiles({ name: 'pay-stub-full.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByLabel('Search documents').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('pay-stub-full.pdf (PDF)').waitFor();
    await page.getByText('Both pages attached now').waitFor();
    expect(await page.getByText('Rejected: Page 2 missing').count()).toBe(0);

    // Rental assistance with its proof: the file is stored as the household's document and named by the assistance.
    await page.getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByLabel('I receive rental assistance').check();
    await page.getByLabel('Type of assistance').selectOption({ label: 'Section 8 voucher' });
    await page.getByLabel('Agency', { exact: true }).fill('NYCHA');
    await page.getByLabel('Monthly amount ($)').fill('1,200');
    await page.getByLabel('Proof of rental assistance').setInputFiles({ name: 'voucher.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
    await page.getByRole('button', { name: 'Save rental assistance' }).click();
    const proofOf = async () => ((await stack.db.selectFrom('rental_assistance').select('details').where('household_id', '=', household.id).executeTakeFirst())?.details as { proofDocumentId?: string } | undefined)?.proofDocumentId;
    await expect.poll(proofOf).toEqual(expect.any(String));
    const proofDoc = await stack.db.selectFrom('household_documents').select(['document_type', 'file_name']).where('id', '=', (await proofOf())!).executeTakeFirstOrThrow();
    expect(proofDoc).toEqual({ document_type: 'rental_assistance_proof', file_name: 'voucher.pdf' });
    await context.close();
  });
});
