/**
 * The manager's case file in Chromium against the real stack: the manager opens an
 * application, previews the household's pay stub in the page and rejects it with a reason; the
 * applicant reads the reason in My Documents and on the application, uploads a new pay stub, and
 * the manager accepts it. No page logs a console error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { demoPayStubPdf } from '../../infra/seed-household';
import { launchChromium, openContext, settled, storageFor, watchConsoleErrors } from '../helpers/browser';
import { applyToSeededRental } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

const REASON = 'The pay stub is cut off: the pay date is missing';

let stack: Stack;
let browser: Browser;
let applicationId: string;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  const applicant = await signIn(stack.app, 'User');
  applicationId = await applyToSeededRental(stack, applicant);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function openAs(role: 'User' | 'Manager', label: string): Promise<{ page: Page; errors: string[] }> {
  const { page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, role), label: `case-file-${label}` });
  page.setDefaultTimeout(20_000);
  return { page, errors: watchConsoleErrors(page) };
}

const documentItem = (page: Page, fileName: string) => page.getByTestId('case-file-document').filter({ has: page.getByRole('heading', { name: fileName, exact: true }) });

describe('the manager\'s case file in the browser', () => {
  it('manager previews and rejects a pay stub; the applicant reads why, uploads a new one; the manager accepts it', async () => {
    const manager = await openAs('Manager', 'manager');
    await manager.page.goto(`/myApplications/${applicationId}`);
    const caseFile = manager.page.getByRole('region', { name: 'Case file' });
    await caseFile.getByRole('heading', { name: 'Household members' }).waitFor();
    await expect.poll(() => caseFile.getByTestId('total-income').textContent()).toContain('$52,000');
    await expect.poll(() => caseFile.getByTestId('ami-band').textContent()).toContain('Very low income (42% of AMI)');

    // The pay stub opens in the page: the PDF fetched for the manager, shown in a frame (its bytes are checked in tests/api/case-file.test.ts).
    const stub = documentItem(manager.page, 'pay-stub.pdf');
    await expect.poll(() => stub.getByTestId('review-state').textContent()).toBe('Not reviewed yet');
    await stub.getByText('Pay stub for Employment').waitFor();
    const fileAnswer = manager.page.waitForResponse((r) => /\/api\/CaseFile\/lease-up\/[^/]+\/documents\/[^/]+\/file$/.test(new URL(r.url()).pathname));
    await stub.getByRole('button', { name: 'Preview pay-stub.pdf' }).click();
    const answer = await fileAnswer;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    const frame = stub.getByTestId('document-preview');
    await frame.waitFor();
    expect(await frame.getAttribute('title')).toBe('Preview of pay-stub.pdf');
    expect(await frame.getAttribute('src')).toMatch(/^blob:/);

    // A rejection needs a reason; with one, the household can see it.
    await stub.getByRole('button', { name: 'Reject', exact: true }).click();
    await stub.getByRole('button', { name: 'Reject document' }).click();
    await stub.getByRole('alert').getByText('Please provide a reason.').waitFor();
    await stub.getByLabel('Reason (the household will see it)').fill(REASON);
    await stub.getByRole('button', { name: 'Reject document' }).click();
    await expect.poll(() => stub.getByTestId('review-state').textContent()).toBe('Rejected');
    await stub.getByText(REASON).waitFor();

    // The applicant reads the reason on the application and in My Documents.
    const applicant = await openAs('User', 'applicant');
    await applicant.page.goto(`/myApplications/${applicationId}`);
    const toFix = applicant.page.getByRole('region', { name: 'Documents to replace' });
    await toFix.getByText(`Pay stub (pay-stub.pdf) was rejected: ${REASON}`).waitFor();
    await toFix.getByRole('link', { name: 'Upload a new one in My Documents' }).click();
    await applicant.page.waitForURL('**/myDocument');
    const row = applicant.page.getByRole('row').filter({ hasText: 'pay-stub.pdf' });
    await row.getByText(`Rejected: ${REASON}`).waitFor();

    // ...and uploads a new pay stub in its place, with its pay date.
    await row.getByRole('button', { name: 'Answer the review' }).click();
    await row.getByLabel('Reason', { exact: true }).fill('Here is the full pay stub');
    await row.getByLabel('New file (optional: upload it again)').setInputFiles({
      name: 'pay-stub-full.pdf',
      mimeType: 'application/pdf',
      buffer: await demoPayStubPdf('City Hospital', 'Maria Lopez', 2000),
    });
    const payDate = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await row.getByLabel('Pay date on the new pay stub').fill(payDate);
    await row.getByRole('button', { name: 'Send' }).click();
    await applicant.page.getByRole('row').filter({ hasText: 'pay-stub-full.pdf' }).waitFor();
    expect(await applicant.page.getByRole('row').filter({ hasText: 'pay-stub.pdf (' }).count()).toBe(0);
    // The page's list of rejected documents answered (no 'networkidle': the live chat stream stays open).
    const rejectedListed = applicant.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/Document' && new URL(r.url()).searchParams.get('rejected') === 'true' && r.status() === 200);
    await applicant.page.goto(`/myApplications/${applicationId}`);
    await rejectedListed;
    await settled(applicant.page);
    await applicant.page.getByRole('region', { name: 'Timeline' }).waitFor();
    expect(await applicant.page.getByTestId('documents-to-fix').count()).toBe(0);

    // The manager sees the new file waiting for review, previews and accepts it.
    await manager.page.reload();
    const fresh = documentItem(manager.page, 'pay-stub-full.pdf');
    await expect.poll(() => fresh.getByTestId('review-state').textContent()).toBe('Not reviewed yet');
    expect(await fresh.getByText('Here is the full pay stub').count()).toBe(1);
    await fresh.getByRole('button', { name: 'Preview pay-stub-full.pdf' }).click();
    await fresh.getByTestId('document-preview').waitFor();
    await fresh.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => fresh.getByTestId('review-state').textContent()).toBe('Accepted');
    const stored = await stack.db.selectFrom('household_documents').select(['accepted_at', 'rejected_by_manager']).where('file_name', '=', 'pay-stub-full.pdf').executeTakeFirstOrThrow();
    expect(stored.rejected_by_manager).toBe(false);
    expect(stored.accepted_at).not.toBeNull();

    expect([...manager.errors, ...applicant.errors]).toEqual([]);
  }, 180_000);
});
