import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openContext } from '../helpers/browser';
import { startStack, type Stack } from '../helpers/stack';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The page shows the document: its title, and one section per tag (section-7 groups). */
async function rendered(page: Page): Promise<void> {
  await page.goto('/api-docs');
  await page.waitForFunction(() => document.querySelectorAll('.opblock-tag').length > 15 && document.querySelector('.info .title')?.textContent?.includes('Affordable-housing portal API'));
}

/**
 * The browsable API description at /api-docs renders the document under its
 * Content-Security-Policy (the app's, plus run-time compiled scripts) and nothing from outside (the browser has no network beyond the app), and
 * axe finds no serious or critical violation on it.
 */
describe('the API description page', () => {
  let stack: Stack;
  let browser: Browser;
  beforeAll(async () => {
    stack = await startStack({ listen: true, seed: false, worker: false });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('renders the document offline under its Content-Security-Policy, with its tags', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { label: 'api-docs' });
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(stack.baseUrl) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await rendered(page);
    await expect.poll(() => page.locator('.opblock-tag').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Applications'), expect.stringContaining('Auth')]));
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no serious or critical axe violation', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { label: 'api-docs-axe', bypassCSP: true });
    await rendered(page);
    await page.addScriptTag({ content: AXE_SOURCE });
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(' ')}`);
    });
    expect(violations).toEqual([]);
    await context.close();
  });
});
