/**
 * A manager's free-text reason read by a Bengali-speaking applicant. The API points at a
 * local server speaking LibreTranslate's API; the applicant's page (in Bengali) shows the reason as
 * written with a Translate button, shows it in Bengali on a click, and the original again on the
 * next. No page logs a console error; the page passes axe in both states.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import bnTranslator from '../../web/src/i18n/locales/bn/translator.json';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor, watchConsoleErrors } from '../helpers/browser';
import { fakeTranslation, startLibreTranslate, type LibreTranslateServer } from '../helpers/libretranslate-server';
import { applyToSeededRental } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

const REASON = 'The pay stub is from last year. Please upload one from the last 30 days.';
const IN_BENGALI = fakeTranslation(REASON, 'bn');

let server: LibreTranslateServer;
let stack: Stack;
let browser: Browser;
let applicationId: string;

beforeAll(async () => {
  server = await startLibreTranslate();
  stack = await startStack({ listen: true, env: { TRANSLATE_URL: server.url } });
  browser = await launchChromium();
  const [applicant, manager] = await Promise.all([signIn(stack.app, 'User'), signIn(stack.app, 'Manager')]);
  applicationId = await applyToSeededRental(stack, applicant);
  const file = await stack.app.inject({ url: `/api/CaseFile/lease-up/${applicationId}`, headers: { authorization: manager.authorization } });
  const stub = (file.json().data.documents as { id: string; documentType: string }[]).find((d) => d.documentType === 'pay_stub')!;
  const rejected = await stack.app.inject({
    method: 'POST',
    url: `/api/CaseFile/lease-up/${applicationId}/documents/${stub.id}/review`,
    headers: { authorization: manager.authorization },
    payload: { decision: 'reject', reason: REASON },
  });
  if (rejected.statusCode !== 200) throw new Error(`reject: ${rejected.body}`);
  // The applicant reads the portal in Bengali (the account's language wins over the browser's).
  await stack.db.updateTable('users').set({ preferred_language: 'bn' }).where('id', '=', applicant.userId).execute();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await server?.close();
});

describe('translating a manager\'s reason in the browser', () => {
  it('a Bengali reader translates the rejection reason and shows the original on request', async () => {
    const { page } = await openContext(browser, stack.baseUrl, { language: 'bn', storage: await storageFor(stack.app, 'User'), label: 'translator-bn', bypassCSP: true });
    const errors = watchConsoleErrors(page);
    await page.goto(`/myApplications/${applicationId}`);
    const toFix = page.getByTestId('documents-to-fix');
    await toFix.getByText(REASON).waitFor();
    await settled(page);
    expect(server.requests).toHaveLength(0);

    await toFix.getByRole('button', { name: bnTranslator.button }).click();
    await toFix.getByText(IN_BENGALI).waitFor();
    expect(await toFix.getByText(REASON).count()).toBe(0);
    expect(await toFix.locator('[lang="bn"]').textContent()).toBe(IN_BENGALI);
    await toFix.getByText(bnTranslator.translated, { exact: false }).waitFor();
    expect(server.requests).toEqual([expect.objectContaining({ q: REASON, target: 'bn', source: 'auto' })]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The original one click away, and back again without asking the server.
    await toFix.getByRole('button', { name: bnTranslator.showOriginal }).click();
    await toFix.getByText(REASON).waitFor();
    expect(await toFix.getByText(IN_BENGALI).count()).toBe(0);
    await toFix.getByRole('button', { name: bnTranslator.showTranslation }).click();
    await toFix.getByText(IN_BENGALI).waitFor();
    expect(server.requests).toHaveLength(1);

    // My Documents shows the same reason translatable; the memory answers it now.
    await page.goto('/myDocument');
    const row = page.getByRole('row').filter({ hasText: 'pay-stub.pdf' });
    await row.getByText(REASON).waitFor();
    await row.getByRole('button', { name: bnTranslator.button }).click();
    await row.getByText(IN_BENGALI).waitFor();
    expect(server.requests).toHaveLength(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
