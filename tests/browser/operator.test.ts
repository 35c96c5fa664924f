/**
 * In Chromium on the built app and the real stack: an Admin searches a log number
 * in the operator console, opens the case's history, sees a personal field redacted, shows it by
 * giving a reason, and finds that reveal in the case's audit log; a user of another role is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { REDACTED } from '../../domain';
import { launchChromium, openContext, storageFor } from '../helpers/browser';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

describe('operator console in the browser', () => {
  let stack: Stack;
  let browser: Browser;
  let applicationId: string;
  let logNumber: string;

  beforeAll(async () => {
    stack = await startStack({ listen: true });
    const applicant = await signIn(stack.app, 'User');
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('kind', '=', 'rental').orderBy('name').executeTakeFirstOrThrow();
    const applied = await stack.app.inject({
      method: 'POST',
      url: '/api/LeaseUpApplication/apply',
      headers: { authorization: applicant.authorization },
      payload: { opportunityId: opportunity.id, householdSize: 2, householdIncome: 48_765, agreeToTerms: true },
    });
    if (applied.statusCode !== 201) throw new Error(`apply: ${applied.body}`);
    applicationId = applied.json().data.applicationId;
    logNumber = await eventually(async () => (await stack.db.selectFrom('applications').select('log_number').where('id', '=', applicationId).executeTakeFirst())?.log_number);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('an admin finds the case by log number, reads its history redacted, reveals it with a reason, and the audit log shows it', async () => {
    const { page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Admin'), label: 'operator-console' });
    await page.goto('/operator');
    await page.getByRole('heading', { level: 1, name: 'Operator console' }).waitFor();
    // The retention schedule's runs (the schedule is made by a worker's start, which this stack's in-process worker does not do).
    await page.getByRole('heading', { level: 2, name: 'Data retention' }).waitFor();
    await page.getByText('The retention schedule does not exist yet', { exact: false }).or(page.getByText('Next run')).first().waitFor();
    await page.getByLabel('Search by').selectOption('logNumber');
    await page.getByLabel('Search for').fill(logNumber);
    // The case's search attributes reach visibility shortly after its first workflow task: search until it is listed.
    const link = page.getByRole('link', { name: `Open history of lease-up/${applicationId}` });
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.getByText('No case matches this search.').or(link).first().waitFor();
        return link.count();
      })
      .toBe(1);
    await expect.poll(() => page.getByRole('region', { name: 'Cases found' }).getByRole('row').filter({ hasText: logNumber }).count()).toBe(1);
    await link.click();

    await page.getByRole('heading', { level: 1, name: /Case history/ }).waitFor();
    await page.getByText('Personal fields are hidden.').waitFor();
    const started = page.locator('.operator-timeline li').first();
    await expect.poll(() => started.locator('pre').first().textContent()).toContain(`"householdIncome": "${REDACTED}"`);
    expect(await page.locator('.operator-timeline').textContent()).not.toContain('48765');

    await page.getByRole('button', { name: 'Show personal fields' }).click();
    const dialog = page.getByRole('dialog', { name: 'Show personal fields' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Give a reason of at least 5 characters' }).waitFor();
    await dialog.getByLabel('Reason').fill('Caller asked about the income on file, ticket 981');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Personal fields are shown.').waitFor();
    await expect.poll(() => started.locator('pre').first().textContent()).toContain('"householdIncome": 48765');

    const audit = page.getByRole('region', { name: 'Audit log of this case' });
    await expect
      .poll(() => audit.getByRole('row').filter({ hasText: 'Caller asked about the income on file, ticket 981' }).filter({ hasText: 'Showed personal fields' }).filter({ hasText: 'admin' }).count())
      .toBe(1);
    const row = await stack.db.selectFrom('operator_audit').selectAll().where('workflow_id', '=', `lease-up/${applicationId}`).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ action: 'reveal', reason: 'Caller asked about the income on file, ticket 981' });
  });

  it('refuses the console to a user of another role', async () => {
    const { page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Manager'), label: 'operator-refused' });
    await page.goto(`/operator/cases/lease-up/${applicationId}`);
    // The app keeps Admin pages from other roles (ProtectedRoute sends them to sign in), and the API answers 403.
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByRole('heading', { level: 1, name: /Case history|Operator console/ }).count()).toBe(0);
    const manager = await signIn(stack.app, 'Manager');
    const refused = await stack.app.inject({ url: `/api/Operator/cases/lease-up/${applicationId}/history`, headers: { authorization: manager.authorization } });
    expect(refused.statusCode).toBe(403);
  });
});
