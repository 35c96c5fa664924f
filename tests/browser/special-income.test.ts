/**
 * Browser test of the profile's other income questions, read in Spanish on a 375 px phone screen: a
 * zero-income declaration (refused without its explanation, in the spec's words), self-employment
 * (answered by keyboard), an income tax refund and child support (a difference needs a reason); the
 * income entry form gives the same zero-income message. Each answer reaches the household on the
 * real stack; the section passes axe, fits the screen and its controls are at least 44 px high.
 */
import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, watchConsoleErrors, type SignedInStorage } from '../helpers/browser';
import { adultMember } from '../helpers/household';
import { startStack, type Stack } from '../helpers/stack';

let browser: Browser;
let stack: Stack;
let context: BrowserContext | undefined;
const username = `special-${randomUUID().slice(0, 8)}`;
const password = 'Special#2026-test';

beforeAll(async () => {
  stack = await startStack({ listen: true, seed: false });
  // The signed-in app reads in the language of the user's profile: Spanish.
  await stack.db
    .insertInto('users')
    .values({ username, email: `${username}@example.org`, first_name: 'Lucía', last_name: 'Ortiz', role: 'User', password_hash: await hash(password), organization_id: null, email_verified: true, preferred_language: 'es' })
    .execute();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

/** Signs in through the API and returns what the web app keeps in local storage, and the bearer header. */
async function signInStorage(): Promise<{ storage: SignedInStorage; headers: { authorization: string } }> {
  const response = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  const { accessToken, refreshToken, accessTokenExpiresAt, ...user } = response.json().data;
  return { storage: { user: JSON.stringify(user), auth: JSON.stringify({ accessToken, refreshToken, accessTokenExpiresAt }) }, headers: { authorization: `Bearer ${accessToken}` } };
}

/** What a phone needs of the section: nothing wider than the screen, every control at least 44 px high. */
async function fitsPhone(page: Page, region: Locator): Promise<void> {
  const box = (await region.boundingBox())!;
  expect(box.x + box.width, 'the section ends inside the 375 px screen').toBeLessThanOrEqual(375);
  const small = await region.evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>('button, select, input:not([type=radio]):not([type=checkbox]), textarea, label.radio')]
      .filter((c) => c.getBoundingClientRect().height < 44)
      .map((c) => `${c.tagName.toLowerCase()} ${c.textContent?.trim() || c.getAttribute('name') || ''} ${c.getBoundingClientRect().height}px`),
  );
  expect(small).toEqual([]);
  expect(await page.evaluate(() => [...document.querySelectorAll('main *')].filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible' && el.getBoundingClientRect().right > 376).length)).toBe(0);
}

describe('the other income questions in Spanish on a phone', () => {
  it('declares zero income, self-employment, a tax refund and child support, with the section 5 messages', async () => {
    const { storage, headers } = await signInStorage();
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => stack.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const householdId = (await call('POST', '/api/Household/profile')).json().data.householdId as string;
    const memberId = (await call('POST', '/api/Household/CreateApplicantOrMember', adultMember({ fullName: 'Lucía Ortiz', email: `${username}@example.org` }))).json().data.id as string;

    const opened = await openContext(browser, stack.baseUrl, { language: 'es', storage, label: 'special-income', bypassCSP: true });
    context = opened.context;
    const page = opened.page;
    await page.setViewportSize({ width: 375, height: 740 });
    const consoleErrors = watchConsoleErrors(page);
    await page.goto('/profile');
    await settled(page);
    await page.getByRole('tab', { name: 'Ingresos' }).click();
    const region = page.getByRole('region', { name: 'Otras preguntas sobre ingresos' });
    const question = region.getByLabel('Pregunta');
    const save = region.getByRole('button', { name: 'Guardar esta respuesta' });
    const saved = region.getByRole('status').filter({ hasText: 'Guardado.' });

    // Zero income: without the explanation the form says the spec's message, in Spanish, on the field.
    await question.selectOption({ label: 'Una declaración de cero ingresos' });
    await region.getByLabel('Tiempo sin ingresos').selectOption({ label: 'De 3 a 6 meses' });
    await region.getByLabel('Cómo paga sus gastos').fill('Con mis ahorros');
    await save.click();
    const explanation = region.getByLabel('Explicación');
    await region.getByRole('alert').filter({ hasText: 'Se requiere una explicación para cero ingresos' }).waitFor();
    expect(await explanation.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fitsPhone(page, region);
    await explanation.fill('Me despidieron en septiembre');
    await save.click();
    await saved.waitFor();
    await expect.poll(async () => (await call('GET', '/api/HouseholdIncome')).json().data.map((i: { incomeType: string }) => i.incomeType)).toContain('zero_income');

    // Self-employment, by keyboard: unanswered it is refused; then Space picks "Sí" and Enter sends it.
    await question.selectOption({ label: 'Trabajo por cuenta propia' });
    await save.click();
    await region.getByRole('alert').filter({ hasText: 'Se requiere una respuesta' }).waitFor();
    await region.getByLabel('Miembro').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('radio');
    await page.keyboard.press('Space');
    expect(await region.getByRole('group', { name: '¿Este miembro trabaja por cuenta propia?' }).getByLabel('Sí').isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Guardar esta respuesta');
    await page.keyboard.press('Enter');
    await saved.waitFor();
    await fitsPhone(page, region);

    // Income tax refund: the tax year is required, and must be a year.
    await question.selectOption({ label: 'Un reembolso de impuestos sobre la renta' });
    await region.getByLabel('Cantidad ($)').fill('812');
    await save.click();
    await region.getByRole('alert').filter({ hasText: 'Obligatorio' }).waitFor();
    await region.getByLabel('Año fiscal').fill('1850');
    await save.click();
    await region.getByRole('alert').filter({ hasText: 'Escriba un año fiscal, por ejemplo 2025' }).waitFor();
    await region.getByLabel('Año fiscal').fill('2025');
    await save.click();
    await saved.waitFor();

    // Child support received differently from what was agreed needs a reason ('Please provide a reason.').
    await question.selectOption({ label: 'Manutención de hijos o pensión alimenticia' });
    await region.getByLabel('Tipo de acuerdo').selectOption({ label: 'Orden judicial' });
    await region.getByLabel('Cantidad acordada ($)').fill('300');
    await region.getByLabel('Frecuencia acordada').selectOption({ label: 'Mensual' });
    await region.getByLabel('Cantidad recibida ($)').fill('200');
    await region.getByLabel('Frecuencia recibida').selectOption({ label: 'Mensual' });
    await save.click();
    await region.getByRole('alert').filter({ hasText: 'Indique un motivo.' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fitsPhone(page, region);
    await region.getByLabel('Motivo de la diferencia').fill('El padre paga solo una parte');
    await save.click();
    await saved.waitFor();

    // The income entry form says the same explanation message for a zero-income entry.
    await page.getByRole('button', { name: 'Agregar ingreso' }).click();
    const entry = page.locator('form').filter({ has: page.getByLabel('Tipo de ingreso') });
    await entry.getByLabel('Tipo de ingreso').selectOption({ label: 'Cero ingresos' });
    await entry.getByLabel('Tiempo sin ingresos').selectOption({ label: 'Menos de 3 meses' });
    await entry.getByLabel('Cómo paga sus gastos').fill('Ayuda de mi hermana');
    await entry.getByRole('button', { name: 'Guardar', exact: true }).click();
    await entry.getByRole('alert').filter({ hasText: 'Se requiere una explicación para cero ingresos' }).waitFor();
    await entry.getByRole('button', { name: 'Cancelar' }).click();

    const incomes = (await call('GET', '/api/HouseholdIncome')).json().data as { incomeType: string; amount: number; memberId: string }[];
    expect(incomes).toEqual(expect.arrayContaining([expect.objectContaining({ incomeType: 'alimony_child_support', amount: 200, memberId })]));
    const special = (await stack.db.selectFrom('household_profiles').select('special_income').where('household_id', '=', householdId).executeTakeFirstOrThrow()).special_income as Record<string, unknown>;
    expect(special).toMatchObject({ ConfirmSelfEmployment: { [memberId]: { isSelfEmployed: true } }, incomeTaxRefund: { memberId, amount: 812, taxYear: 2025 } });
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
