/**
 * Browser test of recertification on the real stack: the demo tenant confirms the profile (twice:
 * it is irreversible), submits documents, draws a signature on the TIC, and sees the approved
 * message once the manager has approved (the manager acts through the API). At every step the
 * tenant's page and the manager's case page say in one sentence whose move it is, and
 * neither logs a console error.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, storageFor, watchConsoleErrors } from '../helpers/browser';
import { demoAccount, signIn as apiSignIn, startStack, type Stack } from '../helpers/stack';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);
let browser: Browser;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const consoleErrors: string[][] = [];

async function newPage(storage?: { user: string; auth: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US' });
  if (storage) {
    await context.addInitScript((s) => {
      localStorage.setItem('user', s.user);
      localStorage.setItem('auth', s.auth);
    }, storage);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  consoleErrors.push(watchConsoleErrors(page));
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`recertification-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return page;
}

/** Reloads until the page's whose-move sentence reads `sentence`. */
async function expectMove(page: Page, sentence: string): Promise<void> {
  const move = page.getByTestId('whose-move');
  await move.waitFor();
  for (let attempt = 0; (await move.textContent()) !== sentence; attempt++) {
    if (attempt >= 10) throw new Error(`the page never said "${sentence}"; it says "${await move.textContent()}"`);
    await page.waitForTimeout(300);
    await page.reload();
    await move.waitFor();
  }
}

describe('recertification in the browser', () => {
  it('a tenant confirms the profile, signs, and sees the approved message after the manager approves', async () => {
    const page = await newPage();
    const { username, password } = demoAccount('Tenant');
    await page.goto('/login');
    await page.getByLabel('Username or email').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/dashboard');
    // The dashboard lists the open recertification as the thing to do.
    await expect.poll(() => page.getByTestId('action-items').textContent()).toContain('Recertification: confirm or update your profile');

    await page.getByRole('link', { name: 'Recertification', exact: true }).first().click();
    await page.waitForURL('**/recertification');
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Action needed');
    const caseId = (await stack.app.inject({ url: '/api/TenantRecertificationStatus/status', headers: await apiSignIn(stack.app, 'Tenant') })).json().data.caseId;
    const managerPage = await newPage(await storageFor(stack.app, 'Manager'));
    await managerPage.goto(`/manager/recertification/${caseId}`);
    const moves = async (tenantSentence: string, managerSentence: string) => {
      await expectMove(page, tenantSentence);
      await expectMove(managerPage, managerSentence);
    };
    await moves('Waiting for you: confirm or update your household profile', 'Waiting for the tenant: confirm or update their household profile');
    await page.getByRole('button', { name: 'Yes, my profile is correct' }).click();
    const dialog = page.getByRole('dialog', { name: 'Please confirm' });
    await expect.poll(() => dialog.textContent()).toContain('This cannot be undone');
    const confirm = dialog.getByRole('button', { name: 'Confirm', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('I understand that this cannot be undone').check();
    await confirm.click();
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Profile complete');
    await moves('Waiting for you: submit your documents', 'Waiting for the tenant: submit their documents');
    await page.getByRole('button', { name: 'Submit my documents' }).click();
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Under manager review');
    await moves(
      'Waiting for the manager: review your documents and prepare the income certification',
      'Waiting for you: review the documents and generate the income certification (TIC)',
    );

    const manager = await apiSignIn(stack.app, 'Manager');
    const generated = await stack.app.inject({ method: 'POST', url: `/api/TenantRecertificationStatus/manager/${caseId}/GenerateTIC`, headers: manager, payload: {} });
    expect(generated.statusCode).toBe(200);

    await page.reload();
    await moves(
      'Waiting for you: sign the income certification (TIC), each adult in turn',
      'Waiting for the tenant: sign the income certification (TIC), each adult in turn',
    );
    // The head of household signs, then each adult member of the household (seeded: one) on the same device.
    const signers = (await stack.app.inject({ url: '/api/TenantRecertificationStatus/status', headers: await apiSignIn(stack.app, 'Tenant') })).json().data.view.signers;
    for (let i = 0; i < signers.length; i++) {
      await expect.poll(() => page.getByRole('button', { name: 'Sign', exact: true }).isDisabled()).toBe(true);
      const canvas = page.getByTestId('signature-canvas');
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      await page.mouse.move(box.x + 30, box.y + 100);
      await page.mouse.down();
      for (const [dx, dy] of [[80, 40], [140, 110], [220, 50], [300, 120]] as const) await page.mouse.move(box.x + dx, box.y + dy, { steps: 5 });
      await page.mouse.up();
      await page.getByRole('button', { name: 'Sign', exact: true }).click();
      // Signing stamps the TIC (a PDF) before it answers: allow for a busy machine.
      if (i < signers.length - 1) await expect.poll(() => page.getByText('signed', { exact: false }).allTextContents(), { timeout: 20_000 }).toContain(`${signers[i].name}: signed`);
    }
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Documents signed, awaiting approval');
    await moves('Waiting for the manager: approve your recertification', 'Waiting for you: approve the recertification');

    const approved = await stack.app.inject({ method: 'POST', url: `/api/TenantRecertificationStatus/manager/${caseId}/Approve`, headers: manager, payload: {} });
    expect(approved.statusCode).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByTestId('recertification-approved').textContent()).toBe('Your recertification has been approved. Thank you!');
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Completed');
    await moves('Recertification approved', 'Recertification approved');
    // After approval the tenant can report a change, which opens an interim recertification.
    await page.getByRole('button', { name: 'My income changed' }).click();
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Interim');
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Action needed');
    await expectMove(page, 'Waiting for you: confirm or update your household profile');
    expect(consoleErrors.flat()).toEqual([]);
  }, 180_000);
});
