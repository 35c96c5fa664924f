/**
 * In the browser: a resident uploads a bank statement on the Assets screen, the figures
 * read from it are proposed (the unsure institution highlighted), corrected by keyboard and saved
 * only on confirming; the page passes axe, and reads in Spanish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, storageFor, watchConsoleErrors } from '../helpers/browser';
import { activate, tabTo } from '../helpers/keyboard';
import { startStack, type Stack } from '../helpers/stack';
import { recentPayDates } from '../helpers/household';
import { BANK_STATEMENTS, PAY_STUBS, samplePdf } from '../helpers/statements';
import { openJson } from '../../infra/data-keys';
import { openIncome } from '../../infra/db/repositories/household-income-store';

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

describe('figures read from a bank statement, checked in the browser', () => {
  it('proposes the figures, highlights the unsure one, and saves only what the resident confirms', async () => {
    const storage = await storageFor(stack.app, 'User');
    const { context, page } = await openContext(browser, stack.baseUrl, { storage, label: 'extraction', bypassCSP: true });
    const errors = watchConsoleErrors(page);
    const user = JSON.parse(storage.user) as { id?: string; userId?: string };
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', (user.userId ?? user.id)!).executeTakeFirstOrThrow();
    const assets = async () => (await stack.db.selectFrom('household_assets').select(['details']).where('household_id', '=', household.id).execute()).map((r) => openJson<{ institution?: string; balance?: number }>(r.details));

    await page.goto('/profile');
    await page.getByRole('tab', { name: 'Assets' }).click();
    // The demo household has said it has no assets: the resident now says yes.
    const question = page.getByRole('group', { name: 'Does anyone in your household have assets?' });
    await question.getByLabel('Yes').click();
    await expect.poll(() => question.getByLabel('Yes').isChecked()).toBe(true);
    const upload = page.getByRole('form', { name: 'Read the figures of a bank statement' });
    await upload.getByLabel(/^Files/).setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: await samplePdf(BANK_STATEMENTS[2]!) });
    await activate(page, upload.getByRole('button', { name: 'Upload and read' }));

    const review = page.getByRole('region', { name: 'We read these figures — check them' });
    await review.getByRole('heading', { name: 'We read these figures — check them' }).waitFor({ timeout: 60_000 });
    // Each figure editable, as read; the institution (a bare heading) marked, the account digits not.
    await expect.poll(() => review.getByLabel('Financial institution').inputValue()).toBe('Maple & Pine');
    expect(await review.getByLabel('Last 4 digits').inputValue()).toBe('0192');
    expect(await review.getByLabel('Account type').inputValue()).toBe('certificate_of_deposit');
    expect(await review.locator('[data-figure="institution"]').getAttribute('data-unsure')).toBe('true');
    expect(await review.locator('[data-figure="last4"]').getAttribute('data-unsure')).toBe('false');
    await review.getByText('Please check this one: we are not sure we read it right.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Proposed only: nothing saved yet.
    expect(await assets()).toEqual([]);

    // By keyboard: correct the institution, give the yearly income the statement does not show, confirm.
    await tabTo(page, review.getByLabel('Financial institution'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Maple & Pine Savings Bank');
    await tabTo(page, review.getByLabel('Annual interest or income ($)'));
    await page.keyboard.type('120');
    await activate(page, review.getByRole('button', { name: 'Confirm and save' }));
    await review.getByText('Saved. The figures you confirmed are in your profile.').waitFor();
    await expect.poll(assets).toEqual([expect.objectContaining({ institution: 'Maple & Pine Savings Bank', balance: 10000, last4: '0192', annualIncome: 120 })]);
    await page.getByText('Maple & Pine Savings Bank ••••0192').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('asks before changing the saved employer name to the one on the pay stub (section 5)', async () => {
    const storage = await storageFor(stack.app, 'User');
    const { context, page } = await openContext(browser, stack.baseUrl, { storage, label: 'extraction-stub', bypassCSP: true });
    const user = JSON.parse(storage.user) as { id?: string; userId?: string };
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', (user.userId ?? user.id)!).executeTakeFirstOrThrow();
    const employment = async () => {
      const rows = await stack.db.selectFrom('household_incomes').selectAll().where('household_id', '=', household.id).where('income_type', '=', 'employment').execute();
      return rows.map((r) => openIncome(r as never)).map((i) => ({ ...(i.details as unknown as { employerName: string; frequency: string }), amount: i.amount }));
    };
    const before = await employment();

    await page.goto('/profile');
    const upload = page.getByRole('form', { name: 'Read the figures of a pay stub' });
    await upload.getByLabel('Income this pay stub belongs to').selectOption({ index: 1 });
    await upload.getByLabel('Pay date on the pay stub').fill(recentPayDates(1, 14));
    await upload.getByLabel(/^Files/).setInputFiles({ name: 'stub.pdf', mimeType: 'application/pdf', buffer: await samplePdf(PAY_STUBS[0]!) });
    await upload.getByRole('button', { name: 'Upload and read' }).click();

    const review = page.getByRole('region', { name: 'We read these figures — check them' });
    const question = review.getByRole('group', { name: 'Update the employer name?' });
    await question.waitFor({ timeout: 60_000 });
    await question.getByText('The pay stub says "Acme Widgets Inc." but your profile says "City Hospital". Update the saved name?').waitFor();
    expect(await review.getByLabel('Gross pay for the pay period').inputValue()).toBe('2150');
    expect(await review.getByLabel('How often you are paid').inputValue()).toBe('bi_weekly');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await employment()).toEqual(before);
    // Keeping the saved name: the figures are saved, the name is not changed.
    await question.getByLabel('No, keep the saved name').check();
    await review.getByRole('button', { name: 'Confirm and save' }).click();
    await review.getByText('Saved. The figures you confirmed are in your profile.').waitFor();
    await expect.poll(employment).toEqual([expect.objectContaining({ employerName: 'City Hospital', amount: 2150, frequency: 'bi_weekly' })]);
    await context.close();
  }, 120_000);

  it('reads in Spanish', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'User'), label: 'extraction-es' });
    await page.goto('/profile');
    await page.getByLabel('Language').selectOption('es');
    await page.getByRole('tab', { name: 'Ingresos' }).click();
    const upload = page.getByRole('form', { name: 'Leer las cifras de un talón de pago' });
    await upload.getByLabel('Fecha de pago en el talón').waitFor();
    await upload.getByRole('button', { name: 'Subir y leer' }).waitFor();
    await context.close();
  }, 60_000);
});
