/**
 * Browser test of the first lease-up thread, driving the built web app in Chromium against the REAL
 * stack (API + worker + Temporal + PostgreSQL + MinIO, started in-process with seeded demo accounts),
 * no mock backend. Set PORTAL_BASE_URL (and the PORTAL_*_USERNAME/PASSWORD variables) to point it at
 * an already running portal instead, e.g. `npm start`.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { demoAccount, startStack, type Stack } from '../helpers/stack';

let BASE_URL = process.env.PORTAL_BASE_URL?.replace(/\/$/, '');
const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);
const STEP_TIMEOUT_MS = 20_000;

/** Credentials: from the environment for an external portal, else the seeded demo accounts. */
function env(name: string): string {
  const value = process.env[name];
  if (value) return value;
  const role = name.includes('MANAGER') ? 'Manager' : 'User';
  return name.endsWith('PASSWORD') ? demoAccount(role).password : demoAccount(role).username;
}

let browser: Browser;
let stack: Stack | undefined;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!BASE_URL) {
    stack = await startStack({ listen: true });
    BASE_URL = stack.baseUrl;
  }
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

/** A fresh browser profile per person, so the applicant's and the manager's sessions never mix. */
async function newPage(label: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'en-US' });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`${label}-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return page;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

function timeline(page: Page) {
  return page.getByRole('region', { name: 'Timeline' });
}

async function expectCurrentStep(page: Page, stepName: string): Promise<void> {
  await timeline(page).locator('li[aria-current="step"]', { hasText: stepName }).waitFor();
  expect(await timeline(page).locator('li[aria-current="step"]').count()).toBe(1);
}

/**
 * Opens each open opportunity in turn from the public list and applies to the first one this
 * applicant has not applied to yet (a rerun against the same database meets 'Already applied').
 */
async function applyToAnOpenOpportunity(page: Page): Promise<string> {
  await page.goto('/public/opportunities');
  await page.getByRole('heading', { level: 1, name: 'Housing opportunities' }).waitFor();
  const cards = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) });
  await cards.first().waitFor();
  const open = cards.filter({ hasNotText: 'Lottery closed' });
  const hrefs = await open.getByRole('heading', { level: 2 }).getByRole('link').evaluateAll((links) =>
    links.map((link) => link.getAttribute('href') ?? ''),
  );
  expect(hrefs.length, 'at least one open published opportunity').toBeGreaterThan(0);

  for (const href of hrefs) {
    await page.goto(href);
    await page.getByRole('link', { name: 'Apply online' }).click();
    await page.waitForURL(/\/opportunity\/[^/]+$/);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();

    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Household size (number of people)').fill('2');
    await dialog.getByLabel('Yearly household income (US dollars)').fill('48000');
    await dialog.getByLabel(/I agree to the terms/).check();
    await dialog.getByRole('button', { name: 'Submit application' }).click();

    // Whichever comes first; the loser's wait is abandoned, so its time-out must not surface later.
    const landed = page.waitForURL(/\/myApplications\/[^/]+$/).then(() => 'applied' as const, () => 'timeout' as const);
    const refused = dialog.getByRole('alert').waitFor().then(() => 'refused' as const, () => 'timeout' as const);
    const outcome = await Promise.race([landed, refused]);
    if (outcome === 'timeout') throw new Error(`applying from ${href} neither succeeded nor showed an error`);
    if (outcome === 'applied') return new URL(page.url()).pathname.split('/').pop()!;
    const message = await dialog.getByRole('alert').innerText();
    expect(message, 'the only acceptable refusal is a previous application').toBe('Already applied');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }
  throw new Error('the applicant has already applied to every open opportunity');
}

describe('first thread: apply, submit the profile, manager marks the review complete', () => {
  it('moves one application from documentation review to decision', async () => {
    const applicant = await newPage('applicant');
    await signIn(applicant, env('PORTAL_APPLICANT_USERNAME'), env('PORTAL_APPLICANT_PASSWORD'));

    const applicationId = await applyToAnOpenOpportunity(applicant);
    await applicant.getByRole('heading', { level: 1, name: /Application details/ }).waitFor();
    await expectCurrentStep(applicant, 'Documentation review');

    const submitProfile = applicant.getByRole('button', { name: 'Submit profile' });
    await submitProfile.click();
    await submitProfile.waitFor({ state: 'detached' });
    await expectCurrentStep(applicant, 'Documentation review');

    const manager = await newPage('manager');
    await signIn(manager, env('PORTAL_MANAGER_USERNAME'), env('PORTAL_MANAGER_PASSWORD'));
    await manager.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Task inbox' }).click();
    await manager.getByRole('heading', { level: 1, name: 'Task inbox' }).waitFor();

    // The inbox reads the read model, which the workflow projects shortly after each change.
    const openLink = manager.locator(`a[href="/myApplications/${applicationId}"]`);
    for (let attempt = 0; !(await openLink.isVisible()); attempt++) {
      if (attempt >= 15) throw new Error(`application ${applicationId} never reached the manager's inbox`);
      await manager.waitForTimeout(1000);
      await manager.reload();
      await manager.getByRole('heading', { level: 1, name: 'Task inbox' }).waitFor();
    }
    await openLink.click();
    await manager.waitForURL(`**/myApplications/${applicationId}`);

    const markAsComplete = manager.getByRole('button', { name: 'Mark as complete' });
    await markAsComplete.click();
    await expectCurrentStep(manager, 'Decision');
    await markAsComplete.waitFor({ state: 'detached' });
  }, 180_000);
});

describe('language picker', () => {
  it('switches the landing page to Spanish and keeps the choice', async () => {
    const page = await newPage('language');
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Welcome to the Housing Portal' }).waitFor();

    await page.getByLabel('Language').selectOption({ label: 'Español' });
    await page.getByRole('heading', { level: 1, name: 'Bienvenido al Portal de Vivienda' }).waitFor();
    await page.getByRole('link', { name: 'Ver oportunidades de vivienda' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Bienvenido al Portal de Vivienda' }).waitFor();
  }, 60_000);
});
