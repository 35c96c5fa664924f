/**
 * Browser test of the lottery in Chromium against the real stack: the demo lottery of
 * `npm start` (300 households, applications closed) with its workflow started as the worker does;
 * a manager draws with a public value and invites a batch reaching the demo applicant; the applicant
 * sees 'in lottery', then their rank, then the invitation at documentation review.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { leaseUpApplicationId } from '../../infra/temporal/ids';
import { DEMO_LOTTERY_APPLICANTS, seedDemoLottery } from '../../infra/seed-lottery';
import { ensureLotteries } from '../../worker/lotteries';
import { demoAccount, startStack, type Stack } from '../helpers/stack';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);

let browser: Browser;
let stack: Stack;
let opportunityId: string;
let applicationId: string;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  const org = await stack.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
  const applicant = await stack.db.selectFrom('users').select('id').where('username', '=', demoAccount('User').username).executeTakeFirstOrThrow();
  await seedDemoLottery(stack.db, org.id, applicant.id, new Date());
  ({ id: opportunityId } = await stack.db.selectFrom('opportunities').select('id').where('name', '=', 'Mott Haven Lottery').executeTakeFirstOrThrow());
  const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', applicant.id).executeTakeFirstOrThrow();
  applicationId = leaseUpApplicationId(opportunityId, household.id);
  expect(await ensureLotteries(stack.db, stack.temporal, stack.config.TEMPORAL_TASK_QUEUE)).toBe(1);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function signedIn(role: 'User' | 'Manager', label: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`lottery-${label}-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  const { username, password } = demoAccount(role);
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL('**/dashboard');
  return page;
}

describe('the lottery in the browser', () => {
  it('a manager draws and invites a batch; the applicant sees the lottery, their rank, then the documentation step', async () => {
    const applicant = await signedIn('User', 'applicant');
    await applicant.goto(`/myApplications/${applicationId}`);
    await expect.poll(() => applicant.getByTestId('lottery-place').textContent()).toContain('Your application is in the lottery');

    const manager = await signedIn('Manager', 'manager');
    await manager.goto(`/manager/opportunities/${opportunityId}/lottery`);
    // The deadline was yesterday: the workflow's timer has closed applications.
    await expect.poll(() => manager.getByTestId('lottery-status').textContent(), { timeout: 20_000 }).toContain('Applications closed: ready to draw');
    await manager.getByLabel('Public value').fill('7 19 33 41');
    await manager.getByRole('button', { name: 'Draw the lottery' }).click();
    await expect.poll(() => manager.getByTestId('lottery-status').textContent(), { timeout: 30_000 }).toContain('Drawn: inviting in rank order');
    // The ranked list, a page of 50 by cursor, starts at rank 1.
    await expect.poll(() => manager.getByRole('row').count()).toBe(51);
    expect(await manager.getByRole('row').nth(1).locator('td').first().textContent()).toBe('1');

    // The applicant's place: a rank; invite exactly up to it.
    await applicant.reload();
    await expect.poll(() => applicant.getByTestId('lottery-place').textContent()).toMatch(/Your rank: \d+/);
    const rank = Number(/Your rank: (\d+)/.exec((await applicant.getByTestId('lottery-place').textContent()) ?? '')![1]);
    expect(rank).toBeGreaterThanOrEqual(1);
    expect(rank).toBeLessThanOrEqual(DEMO_LOTTERY_APPLICANTS);
    await manager.getByLabel('How many households to invite').fill(String(rank));
    await manager.getByRole('button', { name: 'Invite the next households' }).click();
    const row = await stack.db.selectFrom('applications').select(['status', 'current_step']).where('id', '=', applicationId);
    await expect.poll(async () => (await row.executeTakeFirstOrThrow()).status, { timeout: 90_000, interval: 500 }).toBe('in_review');
    await expect.poll(() => manager.getByTestId('lottery-invited').textContent(), { timeout: 30_000 }).not.toBe('0');

    // Invited: the application is now a lease-up case at documentation review, rank kept.
    await applicant.reload();
    const timeline = applicant.getByRole('region', { name: 'Timeline' });
    await expect.poll(() => timeline.locator('li[aria-current="step"]').textContent(), { timeout: 20_000 }).toContain('Documentation review');
    expect(await applicant.getByTestId('lottery-place').textContent()).toContain(`Your rank: ${rank}`);
  }, 240_000);
});
