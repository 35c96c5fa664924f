import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor } from '../helpers/browser';
import { startStack, type Stack } from '../helpers/stack';
import { unzip } from '../helpers/unzip';

let stack: Stack;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await stack?.close();
});

/** The settings page's "Download my data": a tenant who switches the page to Bengali saves the archive, its summary in Bengali. */
describe('download my data in the browser', () => {
  it('a tenant downloads the household archive from the settings page, summary in the language of the page', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Tenant'), label: 'my-data-tenant', bypassCSP: true });
    contexts.push(context);
    await page.goto('/profile-setting');
    await settled(page);
    // The page reads in the account's saved language; the reader switches it to Bengali here.
    await page.getByRole('heading', { name: 'Your data' }).waitFor();
    await page.locator('section').filter({ has: page.locator('#language-heading') }).locator('select').selectOption('bn');
    await page.getByRole('heading', { name: 'আপনার তথ্য' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'আমার তথ্য ডাউনলোড করুন' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzip(await readFile((await saved.path())!));
    expect(files.get('summary.txt')!.toString('utf8')).toContain('হাউজিং পোর্টালে রাখা আপনার তথ্য');
    expect(files.has('profile.json')).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
