/**
 * The intake assistant in Spanish, in Chromium against the real stack. The
 * applicant opens it from Profile, is asked one question at a time in Spanish, gets the address
 * form's own message (in Spanish) for a bad ZIP code, pauses and comes back to the same question,
 * asks the FAQ on the way, and confirms the address before it is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import esCommon from '../../web/src/i18n/locales/es/common.json';
import esProfile from '../../web/src/i18n/locales/es/profile.json';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor, watchConsoleErrors } from '../helpers/browser';
import { demoAccount, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let browser: Browser;
const a = esProfile.assistant;

beforeAll(async () => {
  stack = await startStack({ listen: true, worker: false });
  browser = await launchChromium();
  await stack.db.updateTable('users').set({ preferred_language: 'es' }).where('username', '=', demoAccount('User').username).execute();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('the intake assistant in Spanish', () => {
  it('asks one question at a time, gives the form\'s message, pauses and resumes, answers the FAQ, saves on confirmation', async () => {
    const { page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'User'), label: 'intake-es', bypassCSP: true });
    const errors = watchConsoleErrors(page);
    await page.goto('/profile');
    await page.getByRole('link', { name: a.link }).click();
    await page.waitForURL('**/profile/assistant');
    await page.getByRole('heading', { level: 1, name: a.title }).waitFor();
    const question = page.getByTestId('intake-question');
    const heading = question.getByRole('heading', { level: 2 });
    await expect.poll(() => heading.textContent()).toBe(a.more.member_other.replace('{{count}}', '2'));
    await settled(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await question.getByRole('button', { name: esProfile.form.no }).click();
    await expect.poll(() => heading.textContent()).toBe(a.more.address_one);
    await question.getByRole('button', { name: esProfile.form.yes }).click();
    const say = async (label: string, text: string) => {
      await expect.poll(() => heading.textContent()).toBe(label);
      await question.getByLabel(a.yourAnswer).fill(text);
      await question.getByRole('button', { name: a.send }).click();
    };
    await say(esProfile.address.line1, '45 Calle Luna');
    await expect.poll(() => heading.textContent()).toBe(esProfile.address.line2);
    await question.getByRole('button', { name: a.skip }).click();
    await say(esProfile.address.city, 'Bronx');
    await say(esProfile.address.state, 'NY');
    await say(esProfile.address.zip, '123');
    // The address form's own message, in Spanish.
    await question.getByRole('alert').getByText(esCommon.validation.zip).waitFor();

    // Pause, leave, come back: the same question.
    await page.getByRole('button', { name: a.pause }).click();
    await page.getByText(a.paused).waitFor();
    await page.reload();
    await expect.poll(() => heading.textContent()).toBe(esProfile.address.zip);

    // A question for the FAQ, answered in Spanish, without losing the place.
    await page.getByLabel(a.askLabel).fill('¿Qué archivos puedo subir?');
    await page.getByRole('button', { name: a.ask, exact: true }).click();
    await page.getByTestId('intake-faq').getByRole('heading', { name: '¿Qué archivos puedo subir?' }).waitFor();
    expect(await heading.textContent()).toBe(esProfile.address.zip);

    await say(esProfile.address.zip, '10451');
    await expect.poll(() => heading.textContent()).toBe(esProfile.address.mailingSame);
    await question.getByRole('button', { name: esProfile.form.yes }).click();
    // Shown back before saving; nothing saved yet.
    await expect.poll(() => heading.textContent()).toBe(a.confirm);
    await question.getByText('45 Calle Luna').waitFor();
    const addressOf = async () => {
      const household = await stack.db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select('h.id').where('u.username', '=', demoAccount('User').username).executeTakeFirstOrThrow();
      const row = await stack.db.selectFrom('household_profiles').select('address').where('household_id', '=', household.id).executeTakeFirstOrThrow();
      return (row.address as { line1: string }).line1;
    };
    expect(await addressOf()).not.toBe('45 Calle Luna');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await question.getByRole('button', { name: a.save }).click();
    await page.getByText(a.saved).waitFor();
    await expect.poll(() => heading.textContent()).toBe(esProfile.income.question);
    expect(await addressOf()).toBe('45 Calle Luna');

    // The only console errors are the browser's own line for the refused ZIP code (a 400).
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
