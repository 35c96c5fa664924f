/**
 * The main journeys by keyboard alone, in Chromium on the real stack. Every control is
 * reached with Tab (focus visible and moving forward at every stop), pressed with Enter or Space, and
 * filled by typing; dialogs keep focus inside and give it back to their opener; the page receives no
 * pointer event at all. An applicant applies and follows the application; the manager takes it
 * through documentation review to a unit offer; a tenant confirms recertification and signs the TIC
 * with a typed signature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openContext } from '../helpers/browser';
import { activate, countPointerEvents, expectFocused, expectFocusTrapped, pointerEvents, tabTo } from '../helpers/keyboard';
import { demoAccount, signIn as apiSignIn, startStack, type DemoRole, type Stack } from '../helpers/stack';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function keyboardPage(label: string): Promise<Page> {
  const { context, page } = await openContext(browser, stack.baseUrl, { label: `keyboard-${label}` });
  await countPointerEvents(context);
  return page;
}

async function signIn(page: Page, role: DemoRole): Promise<void> {
  const { username, password } = demoAccount(role);
  await page.goto('/login');
  await tabTo(page, page.getByLabel('Username or email'));
  await page.keyboard.type(username);
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await page.waitForURL('**/dashboard');
}

/** Reloads until the timeline's current step is `step` (each page reads the case's view). */
async function expectStep(page: Page, step: string): Promise<void> {
  const current = page.getByRole('region', { name: 'Timeline' }).locator('li[aria-current="step"]', { hasText: step });
  for (let attempt = 0; !(await current.isVisible()); attempt++) {
    if (attempt >= 10) throw new Error(`the timeline never showed "${step}" as the current step`);
    await page.reload();
    await page.getByRole('region', { name: 'Timeline' }).waitFor();
    await page.waitForTimeout(300);
  }
}

/** Opens an action with the keyboard, fills its dialog with `fill`, confirms with Enter on Confirm. */
async function act(page: Page, action: string, fill?: (dialog: ReturnType<Page['getByRole']>) => Promise<void>, stays = false): Promise<void> {
  const button = page.getByRole('button', { name: action, exact: true });
  for (let attempt = 0; !(await button.isVisible()); attempt++) {
    if (attempt >= 10) throw new Error(`the action "${action}" was never offered`);
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByRole('region', { name: 'Timeline' }).waitFor();
  }
  await activate(page, button);
  const dialog = page.getByRole('dialog');
  if (fill) await fill(dialog);
  if (fill || (await dialog.isVisible())) {
    await activate(page, dialog.getByRole('button', { name: 'Confirm' }));
    await dialog.waitFor({ state: 'hidden' });
  }
  if (stays) await page.getByText('The application was updated.').first().waitFor();
  else await button.waitFor({ state: 'detached' });
}

describe('keyboard-only journeys', () => {
  it('an applicant applies and follows the application; the manager takes it through documentation review to a unit offer', async () => {
    const applicant = await keyboardPage('applicant');
    await signIn(applicant, 'User');
    await activate(applicant, applicant.getByRole('link', { name: 'Opportunities', exact: true }).first());
    await applicant.getByRole('heading', { level: 1, name: 'Housing opportunities' }).waitFor();
    await activate(applicant, applicant.getByRole('listitem').getByRole('heading', { level: 2 }).getByRole('link').first());
    const apply = applicant.getByRole('button', { name: 'Apply', exact: true });
    await activate(applicant, apply);

    // The apply dialog keeps focus, Escape closes it, and focus is back on Apply.
    const dialog = applicant.getByRole('dialog');
    await expectFocusTrapped(applicant, dialog);
    await applicant.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expectFocused(apply, 'focus returned to Apply');
    await applicant.keyboard.press('Enter');
    await tabTo(applicant, dialog.getByLabel('Household size (number of people)'));
    await applicant.keyboard.press('ControlOrMeta+A'); // the field may hold the profile's figure
    await applicant.keyboard.type('2');
    await tabTo(applicant, dialog.getByLabel('Yearly household income (US dollars)'));
    await applicant.keyboard.press('ControlOrMeta+A');
    await applicant.keyboard.type('52000');
    await tabTo(applicant, dialog.getByLabel(/I agree to the terms/));
    await applicant.keyboard.press('Space');
    await activate(applicant, dialog.getByRole('button', { name: 'Submit application' }));
    await applicant.waitForURL(/\/myApplications\/[^/]+$/);
    const applicationUrl = new URL(applicant.url()).pathname;

    // Following it: from the menu to the list and into the application.
    await activate(applicant, applicant.getByRole('link', { name: 'My Applications', exact: true }).first());
    await applicant.waitForURL('**/myApplications');
    await activate(applicant, applicant.getByRole('link', { name: /View details/ }).first());
    await applicant.waitForURL(`**${applicationUrl}`);
    await expectStep(applicant, 'Documentation review');
    await act(applicant, 'Submit profile');

    const manager = await keyboardPage('manager');
    await signIn(manager, 'Manager');
    await activate(manager, manager.getByRole('link', { name: 'Task inbox', exact: true }).first());
    await activate(manager, manager.getByRole('link', { name: /Amina Rahman/ }).first());
    await manager.waitForURL(`**${applicationUrl}`);
    await expectStep(manager, 'Documentation review');
    await act(manager, 'Mark as complete');
    await expectStep(applicant, 'Decision');

    // An appointment time typed into the date-time field, segment by segment (Tab moves between them).
    const slot = new Date(Date.now() + 3 * 86_400_000);
    await act(manager, 'Proceed to appointment scheduling', async (d) => {
      await tabTo(manager, d.getByLabel('Appointment time 1'));
      await manager.keyboard.type(`${String(slot.getMonth() + 1).padStart(2, '0')}${String(slot.getDate()).padStart(2, '0')}${slot.getFullYear()}`);
      await manager.keyboard.press('Tab');
      await manager.keyboard.type('1030A');
      expect(await d.getByLabel('Appointment time 1').inputValue()).toMatch(/T10:30$/);
    });
    await expectStep(applicant, 'Appointment scheduling');
    await act(applicant, 'Schedule appointment', async (d) => {
      await tabTo(applicant, d.getByRole('radio').first());
      await applicant.keyboard.press('Space');
    });
    await expectStep(applicant, 'Screening');

    await expectStep(manager, 'Screening');
    await act(
      manager,
      'Offer a unit',
      async (d) => {
        await tabTo(manager, d.getByRole('checkbox').first());
        await manager.keyboard.press('Space');
        await tabTo(manager, d.getByRole('checkbox').nth(1));
        await manager.keyboard.press('Space');
      },
      true,
    );
    await expectStep(applicant, 'Unit offer');
    await act(applicant, 'Answer the unit offer', async (d) => {
      await tabTo(applicant, d.getByRole('radio', { name: /Unit 2A/ }));
      await applicant.keyboard.press('Space');
      await tabTo(applicant, d.getByRole('radio', { name: 'Accept this unit' }));
      await applicant.keyboard.press('Space');
    });
    await applicant.getByTestId('offers').getByText('accepted').waitFor();

    expect(await pointerEvents(applicant)).toBe(0);
    expect(await pointerEvents(manager)).toBe(0);
  }, 240_000);

  it('a tenant confirms recertification and signs the TIC with a typed signature', async () => {
    const page = await keyboardPage('tenant');
    await signIn(page, 'Tenant');
    await activate(page, page.getByRole('link', { name: 'Recertification', exact: true }).first());
    await page.waitForURL('**/recertification');
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Action needed');

    const yes = page.getByRole('button', { name: 'Yes, my profile is correct' });
    await activate(page, yes);
    const dialog = page.getByRole('dialog', { name: 'Please confirm' });
    await expectFocusTrapped(page, dialog);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expectFocused(yes, 'focus returned to the confirm-or-update choice');
    await page.keyboard.press('Enter');
    await tabTo(page, dialog.getByLabel('I understand that this cannot be undone'));
    await page.keyboard.press('Space');
    await activate(page, dialog.getByRole('button', { name: 'Confirm', exact: true }));
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Profile complete');
    await activate(page, page.getByRole('button', { name: 'Submit my documents' }));
    await expect.poll(() => page.getByTestId('recertification-case').textContent()).toContain('Under manager review');

    // The manager generates the TIC (through the API: the manager's keyboard journey is above).
    const tenant = await apiSignIn(stack.app, 'Tenant');
    const manager = await apiSignIn(stack.app, 'Manager');
    const status = (await stack.app.inject({ url: '/api/TenantRecertificationStatus/status', headers: tenant })).json().data;
    expect((await stack.app.inject({ method: 'POST', url: `/api/TenantRecertificationStatus/manager/${status.caseId}/GenerateTIC`, headers: manager, payload: {} })).statusCode).toBe(200);
    await page.reload();

    // The head of household and each adult member sign on this device, each by typing their name.
    const signers = (await stack.app.inject({ url: '/api/TenantRecertificationStatus/status', headers: tenant })).json().data.view.signers as { name: string }[];
    for (const [i, signer] of signers.entries()) {
      const sign = page.getByRole('button', { name: 'Sign', exact: true });
      await expect.poll(() => sign.isDisabled()).toBe(true);
      await tabTo(page, page.getByLabel('Or type your full name to sign'));
      await page.keyboard.type(signer.name);
      await activate(page, sign);
      if (i < signers.length - 1) await expect.poll(() => page.getByText('signed', { exact: false }).allTextContents(), { timeout: 20_000 }).toContain(`${signer.name}: signed`);
    }
    // The last signature stamps the TIC (a PDF) before the stage changes: allow for a busy machine.
    await expect.poll(() => page.getByTestId('recertification-case').textContent(), { timeout: 20_000 }).toContain('Documents signed, awaiting approval');
    expect(await pointerEvents(page)).toBe(0);
  }, 180_000);
});
