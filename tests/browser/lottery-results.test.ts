/**
 * The public lottery results page in Chromium, signed out, by keyboard:
 * the published values and their verification, a search by log number, and the ranked list page
 * by page, and the invitation log. Real stack in-process; the drawn lottery is written straight into the tables.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium } from '../helpers/browser';
import { markInvited, nextInvitations } from '../../activities/lottery';
import { STORAGE_KEYS } from '../../domain';
import { insertDrawnLottery, type DrawnLottery } from '../helpers/drawn-lottery';
import { startStack, type Stack } from '../helpers/stack';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);
let browser: Browser;
let stack: Stack;
let lottery: DrawnLottery;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  stack = await startStack({ listen: true, seed: false });
  lottery = await insertDrawnLottery(stack.db, { households: 120, units: 10 });
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

async function newPage(label: string): Promise<Page> {
  // bypassCSP: axe-core is added to the page as a script (the app's CSP would refuse it).
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US', bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`lottery-${label}-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return page;
}

describe('public lottery results page', () => {
  it('shows the verified draw, finds a log number and pages the ranked list, by keyboard', async () => {
    const page = await newPage('results');
    await page.goto(`/lottery/${lottery.opportunityId}/results`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Lottery results: Lottery homes /);
    await page.getByText('Verified: recomputing the draw').waitFor();
    for (const value of [lottery.seed, lottery.result.listHash, lottery.result.resultHash, lottery.publicValue]) await page.getByText(value, { exact: true }).waitFor();

    // Ranks 1..50 first; the next page by keyboard, then back.
    const table = page.getByRole('table');
    await expect.poll(() => table.getByRole('row').count()).toBe(51);
    await expect.poll(() => table.locator('caption').textContent()).toBe('Ranks 1 to 50');
    await page.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => table.locator('caption').textContent()).toBe('Ranks 51 to 100');
    const rank51 = lottery.result.ranked[50]!;
    await table.getByRole('rowheader', { name: rank51.logNumber, exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => table.locator('caption').textContent()).toBe('Ranks 101 to 120');
    expect(await page.getByRole('button', { name: 'Next page' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => table.locator('caption').textContent()).toBe('Ranks 51 to 100');

    // Search, typed in lower case and submitted with Enter.
    const someone = lottery.result.ranked.find((r) => Object.keys(r.groupPositions).length > 0)!;
    const box = page.getByLabel('Lottery log number');
    await box.fill('not a number!');
    await box.press('Enter');
    await page.getByText('Enter a log number like LU-000123').waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await box.fill(someone.logNumber.toLowerCase());
    await box.press('Enter');
    await page.getByText(`Log number ${someone.logNumber}: rank ${someone.rank}`).waitFor();
    await page.getByText(/^Position \d+ among /).first().waitFor();
    await box.fill('LU-0');
    await box.press('Enter');
    await page.getByText('No ranked application has the log number LU-0.').waitFor();

    // Nothing personal on the page.
    const text = await page.locator('body').innerText();
    for (const personal of ['First1', 'Last1', '@example.test']) expect(text).not.toContain(personal);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('is linked from the public opportunity page once drawn, and not before', async () => {
    const page = await newPage('opportunity-link');
    await page.goto(`/public/opportunity/${lottery.opportunityId}`);
    const link = page.getByRole('link', { name: 'See the lottery results' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/lottery/${lottery.opportunityId}/results`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Lottery results: Lottery homes /);

    const pending = await insertDrawnLottery(stack.db, { households: 2, drawn: false });
    await page.goto(`/public/opportunity/${pending.opportunityId}`);
    await page.getByRole('heading', { level: 1, name: /^Lottery homes / }).waitFor();
    expect(await page.getByRole('link', { name: 'See the lottery results' }).count()).toBe(0);
  });

  it('before the draw shows the committed seed hash only, in Spanish too', async () => {
    const pending = await insertDrawnLottery(stack.db, { households: 4, drawn: false });
    const page = await newPage('pending');
    await page.addInitScript((key) => localStorage.setItem(key, 'es'), STORAGE_KEYS.language);
    await page.goto(`/lottery/${pending.opportunityId}/results`);
    await page.getByText('La lotería aún no se ha sorteado.', { exact: false }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(pending.seed);
  });

  it('lists the invitation log with its reasons in words and its head, pages it by keyboard, in English and Chinese, at 375 px', async () => {
    const invited = await insertDrawnLottery(stack.db, { households: 80, units: 10 });
    const second = invited.result.ranked[1]!.logNumber;
    await stack.db.updateTable('applications').set({ waitlist_state: 'inactive', waitlist_state_at: new Date('2026-11-21T10:00:00Z') }).where('log_number', '=', second).execute();
    const batch = await nextInvitations(stack.db, { opportunityId: invited.opportunityId, count: 60 });
    await markInvited(stack.db, { opportunityId: invited.opportunityId, applicationIds: batch.invitations.map((i) => i.input.applicationId) });
    const head = (await stack.db.selectFrom('opportunity_lotteries').select('invitation_log_head').where('opportunity_id', '=', invited.opportunityId).executeTakeFirstOrThrow()).invitation_log_head!;

    const page = await newPage('invitation-log');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`/lottery/${invited.opportunityId}/results`);
    const log = page.locator('section[aria-labelledby="invitation-log-heading"]');
    await expect.poll(() => log.locator('caption').textContent()).toBe('Lines 1 to 50');
    await page.getByText(head, { exact: true }).waitFor();
    // Line 1: the inactive household passed over, in words; then rank 1 invited.
    const first = log.getByRole('row').nth(1);
    expect(await first.getByRole('rowheader').textContent()).toBe(second);
    expect(await first.textContent()).toContain('the household did not confirm it still wants its place');
    expect(await log.getByRole('row').nth(2).textContent()).toContain('next in rank order');
    await page.getByRole('button', { name: 'Later lines' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => log.locator('caption').textContent()).toBe('Lines 51 to 61');
    expect(await page.getByRole('button', { name: 'Later lines' }).getAttribute('aria-disabled')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    const zh = await newPage('invitation-log-zh');
    await zh.addInitScript((key) => localStorage.setItem(key, 'zh'), STORAGE_KEYS.language);
    await zh.goto(`/lottery/${invited.opportunityId}/results`);
    const zhLog = zh.locator('section[aria-labelledby="invitation-log-heading"]');
    await expect.poll(() => zhLog.getByRole('row').nth(1).textContent()).toContain('该家庭没有确认仍需要其名额');
    expect(await zhLog.getByRole('row').nth(1).textContent()).toContain('已跳过');
    expect(await seriousAxeViolations(zh)).toEqual([]);
  });
});
