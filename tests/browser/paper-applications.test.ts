/**
 * Paper and mail applicants in Chromium against the real stack: a manager enters a mailed form in
 * Spanish during the mail grace period, the same person's online application is flagged as a
 * possible duplicate and resolved (the paper one kept), the first letter waits in the print queue
 * and is marked mailed, and the household claims its application online with the code printed in
 * that letter. Each page passes axe and fits a 375-pixel screen.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatLogNumber } from '../../domain';
import { DAY } from '../../domain/time';
import { openLottery } from '../../api/services/lottery';
import { recordMatchKey } from '../../infra/db/repositories/lottery-duplicates';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, storageFor } from '../helpers/browser';
import { demoAccount, eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { tinyPdf } from '../helpers/household';

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8').normalize('NFC').replace(/\s+/g, ' ');
const NARROW = { width: 375, height: 800 };

let stack: Stack;
let browser: Browser;
let opportunityId: string;
let onlineId: string;
const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);

/** No serious or critical axe finding, and nothing wider than a 375-pixel screen. */
async function accessibleAndNarrow(page: Page) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  // The elements sticking out, named, so a failure says what is too wide.
  const wide = await page.evaluate((width) => {
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ').join('.')}` : ''}`;
    return [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > width + 1 && !e.parentElement?.closest('.table-scroll')).slice(0, 5).map(name);
  }, NARROW.width);
  expect(wide).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
}

beforeAll(async () => {
  stack = await startStack({ listen: true });
  const manager = await signIn(stack.app, 'Manager');
  const org = await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow();
  // Applications closed yesterday; mail postmarked by then is entered for three more days.
  ({ id: opportunityId } = await stack.db
    .insertInto('opportunities')
    .values({ organization_id: org.organization_id!, name: 'Calle Papel Homes', kind: 'rental', address: '9 Paper Ave', lottery_end_date: yesterday, mail_grace_days: 3, published: true, selection: 'lottery', amenities: '[]', requirements: '[]', income_ranges: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow());
  await stack.db.insertInto('units').values({ opportunity_id: opportunityId, unit_number: '1A', bedroom_type: '1 bedroom', address: '9 Paper Ave', accessibility: '[]', monthly_rent: 900, ami_percent: 50 }).execute();
  // The demo applicant applied online before the deadline (as the apply service writes it).
  const applicant = await stack.db.selectFrom('households').innerJoin('users', 'users.id', 'households.head_user_id').select(['households.id', 'users.id as userId']).where('users.username', '=', demoAccount('User').username).executeTakeFirstOrThrow();
  onlineId = leaseUpApplicationId(opportunityId, applicant.id);
  const log = await stack.db.insertInto('application_log_numbers').values({ application_id: onlineId }).returning('number').executeTakeFirstOrThrow();
  await stack.db
    .insertInto('applications')
    .values({ id: onlineId, workflow_id: leaseUpWorkflowId(onlineId), household_id: applicant.id, opportunity_id: opportunityId, organization_id: org.organization_id!, applicant_user_id: applicant.userId, log_number: formatLogNumber(log.number), status: 'in_lottery', current_step: 'submitted', pending_tasks: '[]', household_size: 2, household_income: 40_000, applied_at: new Date(Date.now() - 3 * DAY), state_updated_at: new Date(), state_version: 0 })
    .execute();
  await recordMatchKey(stack.db, { applicationId: onlineId, opportunityId, householdId: applicant.id });
  await openLottery({ db: stack.db, temporal: stack.temporal, taskQueue: stack.config.TEMPORAL_TASK_QUEUE }, opportunityId);
  await eventually(async () => (await stack.db.selectFrom('opportunity_lotteries').select('stage').where('opportunity_id', '=', opportunityId).executeTakeFirst())?.stage === 'closed', 30_000, 'the lottery closed for online applications');
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('paper applications in the browser', () => {
  it('a manager enters a Spanish paper form, resolves the duplicate, mails the letter; the household claims the application with its code', async () => {
    const { page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Manager'), label: 'paper-manager', bypassCSP: true });
    await page.setViewportSize(NARROW);

    // From the lottery page to the paper entry form.
    await page.goto(`/manager/opportunities/${opportunityId}/lottery`);
    await page.getByRole('link', { name: 'Enter a paper application' }).click();
    await page.getByRole('heading', { name: 'Enter a paper application' }).waitFor();
    await accessibleAndNarrow(page);

    // The same person as the online applicant, typed from the Spanish form.
    await page.getByLabel('Full name').fill(`${demoAccount('User').lastName}, ${demoAccount('User').firstName}`);
    await page.getByLabel('Date of birth').fill('1978-05-14');
    await page.getByLabel('Gender', { exact: true }).selectOption({ label: 'Female' });
    await page.getByLabel('Social Security number (SSN)').fill('123-45-6789');
    await page.getByLabel('Asian').check();
    await page.getByLabel('Ethnicity').selectOption({ label: 'Not Hispanic or Latino' });
    await page.getByLabel('Marital status').selectOption({ label: 'Married' });
    await page.getByLabel('Student status').selectOption({ label: 'Not a student' });
    await page.getByLabel('Student eligibility').selectOption({ label: 'Not applicable' });
    await page.getByLabel('Email', { exact: true }).fill('amina.paper@example.org');
    await page.getByLabel('Total yearly income of all members (US dollars)').fill('38000');
    await page.getByLabel('Address line 1').fill('455 E 148th St');
    await page.getByLabel('City', { exact: true }).fill('Bronx');
    await page.getByLabel('State', { exact: true }).fill('NY');
    await page.getByLabel('ZIP code').fill('10455');
    await page.getByLabel('Language of the form (letters are written in it)').selectOption({ label: 'Spanish' });
    await page.getByLabel('Postmark date').fill(yesterday);
    await page.getByLabel('Scanned form (PDF, JPEG, PNG, HEIC or TIFF)').setInputFiles({ name: 'formulario.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
    await page.getByRole('button', { name: 'Enter the application' }).click();
    const entered = await page.getByTestId('paper-entered').textContent();
    const logNumber = /LU-\d{6}/.exec(entered ?? '')?.[0];
    expect(logNumber, entered ?? '').toBeDefined();
    const paper = await stack.db.selectFrom('applications').select(['id', 'status', 'channel']).where('log_number', '=', logNumber!).executeTakeFirstOrThrow();
    expect(paper).toMatchObject({ status: 'in_lottery', channel: 'paper' });

    // The possible duplicate with the online application: the manager keeps the paper one, with a reason.
    await page.goto(`/manager/opportunities/${opportunityId}/lottery/duplicates`);
    const pair = page.getByTestId('duplicate-pair');
    await pair.waitFor();
    await accessibleAndNarrow(page);
    await pair.getByLabel(new RegExp(`${logNumber} \\(paper`)).check();
    await pair.getByLabel('Reason for the decision').fill('The household asked to keep its paper application');
    await pair.getByRole('button', { name: 'Decide' }).click();
    await expect.poll(() => page.getByText(`Kept ${logNumber}`).count(), { timeout: 20_000, message: 'the pair shown as decided' }).toBe(1);
    expect((await stack.db.selectFrom('applications').select('status').where('id', '=', onlineId).executeTakeFirstOrThrow()).status).toBe('withdrawn');

    // The first letter, in Spanish, waits in the print queue; marked mailed, it leaves the list.
    await page.goto('/manager/print-queue');
    const row = page.getByTestId('print-queue-row').filter({ hasText: logNumber! });
    await row.waitFor();
    await accessibleAndNarrow(page);
    expect(await row.textContent()).toContain('Spanish');
    const letter = await stack.db.selectFrom('mailed_letters').select('id').where('application_id', '=', paper.id).executeTakeFirstOrThrow();
    const manager = await signIn(stack.app, 'Manager');
    const text = pdfText((await stack.app.inject({ url: `/api/PrintQueue/${letter.id}/pdf`, headers: manager })).rawPayload);
    const code = /código: ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(text)?.[1];
    expect(code, text).toBeDefined();
    await row.getByRole('button', { name: 'Mark mailed' }).click();
    await expect.poll(() => page.getByTestId('print-queue-row').filter({ hasText: logNumber! }).count(), { timeout: 20_000, message: 'the mailed letter gone from the list to mail' }).toBe(0);
    // Mailed, the letter that printed the code keeps no PDF.
    expect((await stack.app.inject({ url: `/api/PrintQueue/${letter.id}/pdf`, headers: manager })).statusCode).toBe(410);

    // The household makes an account and claims its application with the code of the letter.
    const tag = randomUUID().slice(0, 8);
    const password = `Paper#${tag}`;
    await stack.db.insertInto('users').values({ username: `amina-${tag}`, email: `amina-${tag}@example.org`, first_name: 'Amina', last_name: 'Rahman', role: 'User', password_hash: await hash(password), email_verified: true }).execute();
    const { page: household } = await openContext(browser, stack.baseUrl, { label: 'paper-household', bypassCSP: true });
    await household.setViewportSize(NARROW);
    await household.goto('/login');
    await household.getByLabel('Username or email').fill(`amina-${tag}`);
    await household.getByLabel('Password', { exact: true }).fill(password);
    await household.getByRole('button', { name: 'Log in', exact: true }).click();
    await household.waitForURL('**/dashboard');
    await household.goto('/myApplications');
    await household.getByRole('link', { name: 'Applied on paper? Claim your application with the code from our letter' }).click();
    await household.getByRole('heading', { name: 'Claim a paper application' }).waitFor();
    await accessibleAndNarrow(household);
    await household.getByLabel('Claim code (for example ABCD-2345)').fill(code!.toLowerCase());
    // The head's date of birth as written on the form goes with the code.
    await household.getByLabel('Date of birth of the head of household').fill('1978-05-14');
    await household.getByRole('button', { name: 'Claim' }).click();
    await household.getByTestId('claim-done').waitFor();
    await household.getByRole('link', { name: 'Open My Applications' }).click();
    await expect.poll(() => household.getByText(logNumber!).count(), { timeout: 20_000, message: 'the claimed application in My Applications' }).toBeGreaterThan(0);
  }, 240_000);
});
