/**
 * A manager ticks applications in the task inbox, asks them all for a document,
 * and watches the batch's progress page until every application shows its result (Chromium, built
 * app, real stack and workflows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openContext, storageFor } from '../helpers/browser';
import { seedLeaseUpCases } from '../helpers/bulk-cases';
import { startStack, type Stack } from '../helpers/stack';

describe('bulk actions in the browser', () => {
  let stack: Stack;
  let browser: Browser;
  let opportunityId: string;

  beforeAll(async () => {
    stack = await startStack({ listen: true });
    const manager = await stack.db.selectFrom('users').select('organization_id').where('username', '=', 'manager').executeTakeFirstOrThrow();
    ({ opportunityId } = await seedLeaseUpCases(stack.db, stack.temporal, { organizationId: manager.organization_id!, taskQueue: stack.config.TEMPORAL_TASK_QUEUE, count: 3 }));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('selects applications in the inbox, requests a document from all of them, and sees each result', async () => {
    const { page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Manager'), label: 'bulk-actions' });
    await page.goto('/manager/tasks');
    await page.getByRole('heading', { level: 1, name: 'Task inbox' }).waitFor();
    await page.getByLabel('Opportunity', { exact: true }).selectOption(opportunityId);
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(3);
    await page.getByRole('checkbox', { name: 'Select every application shown' }).check();
    await page.getByText('The 3 selected applications').waitFor();
    await page.getByLabel('Action', { exact: true }).selectOption('requestDocument');
    await page.getByLabel('Document to request').fill('Recent pay stub');
    await page.getByRole('button', { name: 'Start' }).click();

    await page.getByRole('heading', { level: 1, name: 'Bulk action' }).waitFor();
    await page.getByText('Finished: 3 of 3 applications handled').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('table tbody tr').filter({ hasText: 'Done' }).count()).toBe(3);
  });
});
