/**
 * The manager's task inbox and applications list load a page at a time and show more on
 * request (Chromium, built app, real stack; rows written straight into the read models).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openContext, storageFor } from '../helpers/browser';
import { addApplications, addManagerTasks } from '../helpers/bulk-rows';
import { startStack, type Stack } from '../helpers/stack';

describe('manager lists in the browser', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let opportunityIds: string[];
  let organizationId: string;

  beforeAll(async () => {
    stack = await startStack({ listen: true });
    const manager = await stack.db.selectFrom('users').select('organization_id').where('username', '=', 'manager').executeTakeFirstOrThrow();
    organizationId = manager.organization_id!;
    opportunityIds = (await stack.db.selectFrom('opportunities').select('id').where('organization_id', '=', organizationId).orderBy('name').execute()).map((o) => o.id);
    const householdId = (await stack.db.selectFrom('households').select('id').executeTakeFirstOrThrow()).id;
    // Far in the future, so these come after every seeded task (soonest due first) and before every seeded application (newest first).
    await addManagerTasks(stack.db, { organizationId, householdId, contextIds: opportunityIds, count: 70, from: new Date('2099-01-01T00:00:00Z'), stepMs: 1_000 });
    await addApplications(stack.db, { organizationId, opportunityIds: [opportunityIds[0]!], count: 30, from: new Date('2099-01-01T00:00:00Z'), stepMs: 60_000 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const bodyRows = () => page.locator('table tbody tr').count();

  it('the task inbox shows 50 tasks, then more on "Show more tasks" until none are left', async () => {
    const total = await stack.db.selectFrom('manager_tasks').select((eb) => eb.fn.countAll<string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
    expect(Number(total.n)).toBeGreaterThan(50);
    ({ page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Manager'), label: 'manager-inbox' }));
    await page.goto('/manager/tasks');
    await page.getByRole('heading', { level: 1, name: 'Task inbox' }).waitFor();
    await page.locator('table tbody tr').first().waitFor();
    // One line per case: every bulk task is its own case.
    const first = await bodyRows();
    expect(first).toBeLessThanOrEqual(50);
    const more = page.getByRole('button', { name: 'Show more tasks' });
    // Settled: the button is gone (no page left) or enabled again (the page it asked for arrived).
    const settledMore = () => expect.poll(async () => !(await more.isVisible()) || (await more.isEnabled()), { timeout: 10_000 }).toBe(true);
    await more.click();
    await expect.poll(bodyRows).toBeGreaterThan(first);
    await settledMore();
    for (let pages = 0; pages < 10 && (await more.isVisible()); pages++) {
      await more.click();
      await settledMore();
    }
    const cases = await stack.db.selectFrom('manager_tasks').select(['case_kind', 'case_id']).distinct().where('organization_id', '=', organizationId).execute();
    await expect.poll(bodyRows).toBe(cases.length);
  });

  it('the Applications page lists one opportunity’s applications 25 at a time, with the applicant named', async () => {
    ({ page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Manager'), label: 'manager-applications' }));
    await page.goto('/manager/tasks');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    await page.getByLabel('Opportunity', { exact: true }).selectOption(opportunityIds[0]!);
    await expect.poll(() => page.url()).toContain(`opportunityId=${opportunityIds[0]}`);
    await page.getByRole('columnheader', { name: 'Applicant' }).waitFor();
    await expect.poll(bodyRows).toBe(25);
    const count = await stack.db.selectFrom('applications').select((eb) => eb.fn.countAll<string>().as('n')).where('opportunity_id', '=', opportunityIds[0]!).executeTakeFirstOrThrow();
    await page.getByRole('button', { name: 'Show more applications' }).click();
    await expect.poll(bodyRows).toBe(Math.min(50, Number(count.n)));
    // The newest first: the bulk applications (applied in 2099) lead the list.
    await page.locator('table tbody tr').first().getByText('Bulk Applicant 29').waitFor();
  });
});
