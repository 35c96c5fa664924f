/**
 * Browser test of the whole lease-up path in Chromium against the real stack: an applicant applies
 * and follows the timeline; the manager takes the application through appointment, unit offer, income
 * certification and lease signing; the applicant sees each step change and signs on a signature pad.
 * At every step both pages say in one sentence whose move it is, no page logs a console
 * error, and the success toast passes colour contrast.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium, toastContrastViolations, watchConsoleErrors } from '../helpers/browser';
import { demoAccount, startStack, type Stack } from '../helpers/stack';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);
const STEP_TIMEOUT_MS = 20_000;

let browser: Browser;
let stack: Stack;
const contexts: BrowserContext[] = [];
const consoleErrors: string[][] = [];

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

async function newPage(label: string): Promise<Page> {
  // bypassCSP: the toast's contrast is checked with axe, added to the page as a script.
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US', bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  consoleErrors.push(watchConsoleErrors(page));
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`lease-up-${label}-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return page;
}

async function signIn(page: Page, role: 'User' | 'Manager'): Promise<void> {
  const { username, password } = demoAccount(role);
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

/** Reloads until the timeline's current step is `step` (each page reads the workflow's view). */
async function expectStep(page: Page, step: string): Promise<void> {
  const current = page.getByRole('region', { name: 'Timeline' }).locator('li[aria-current="step"]', { hasText: step });
  for (let attempt = 0; !(await current.isVisible()); attempt++) {
    if (attempt >= 10) throw new Error(`the timeline never showed "${step}" as the current step`);
    await page.reload();
    await page.getByRole('region', { name: 'Timeline' }).waitFor();
    await page.waitForTimeout(300);
  }
}

/** Clicks an action button, fills its dialog with `fill`, confirms, and waits for the dialog to close. */
async function act(page: Page, action: string, fill?: (dialog: ReturnType<Page['getByRole']>) => Promise<void>, stays = false): Promise<void> {
  // The other person's last action may still be finishing (a letter being made): reload until offered.
  const button = page.getByRole('button', { name: action, exact: true });
  for (let attempt = 0; !(await button.isVisible()); attempt++) {
    if (attempt >= 10) throw new Error(`the action "${action}" was never offered`);
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByRole('region', { name: 'Timeline' }).waitFor();
  }
  await button.click();
  const dialog = page.getByRole('dialog');
  if (fill) await fill(dialog);
  if (fill || (await dialog.isVisible())) {
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
  // Most actions are done once; a few stay possible (another offer, a regenerated TIC): wait for the toast.
  if (stays) await page.getByText('The application was updated.').first().waitFor();
  else await page.getByRole('button', { name: action, exact: true }).waitFor({ state: 'detached' });
}

/** Reloads until the page's whose-move sentence reads `sentence` (the other side may just have acted). */
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

/** Both pages' sentences at one step of the path. */
async function expectMoves(applicant: Page, forApplicant: string, manager: Page, forManager: string): Promise<void> {
  await expectMove(applicant, forApplicant);
  await expectMove(manager, forManager);
}

async function drawSignature(page: Page): Promise<void> {
  const box = (await page.getByTestId('lease-up-signature').boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 40, { steps: 8 });
  await page.mouse.move(box.x + 220, box.y + 110, { steps: 8 });
  await page.mouse.up();
}

describe('lease-up in the browser', () => {
  it('applicant applies and follows the timeline; manager takes it through offer and lease signing', async () => {
    const applicant = await newPage('applicant');
    await signIn(applicant, 'User');
    await applicant.goto('/opportunities');
    await applicant.getByRole('heading', { level: 1, name: 'Housing opportunities' }).waitFor();
    await applicant.getByRole('listitem').getByRole('heading', { level: 2 }).getByRole('link').first().click();
    await applicant.getByRole('button', { name: /Add to favourites/ }).click();
    await applicant.getByRole('button', { name: /Remove from favourites/ }).waitFor();
    const opportunityUrl = new URL(applicant.url()).pathname;
    await applicant.getByRole('button', { name: 'Apply', exact: true }).click();
    const apply = applicant.getByRole('dialog');
    await apply.getByLabel('Household size (number of people)').fill('2');
    await apply.getByLabel('Yearly household income (US dollars)').fill('52000');
    await apply.getByLabel(/I agree to the terms/).check();
    await apply.getByRole('button', { name: 'Submit application' }).click();
    await applicant.waitForURL(/\/myApplications\/[^/]+$/);
    const applicationUrl = new URL(applicant.url()).pathname;
    await expectStep(applicant, 'Documentation review');
    // The screening consent step is not skipped before the manager could ask for it.
    await applicant.getByRole('region', { name: 'Timeline' }).locator('li', { hasText: 'Screening consent' }).getByText('Only if needed').waitFor();

    const manager = await newPage('manager');
    await signIn(manager, 'Manager');
    await manager.goto(applicationUrl);
    await expectStep(manager, 'Documentation review');
    await expectMoves(
      applicant, 'Waiting for you: submit your profile to this application',
      manager, "Waiting for the applicant: submit their profile to this application ('Mark as complete' is offered once they have)",
    );
    await act(applicant, 'Submit profile');
    // The success toast is readable (axe colour contrast) and leaves the header's buttons uncovered.
    await applicant.getByText('The application was updated.').first().waitFor();
    expect(await toastContrastViolations(applicant)).toEqual([]);
    const toastBox = (await applicant.locator('[data-sonner-toast]').first().boundingBox())!;
    const headerBox = (await applicant.locator('.site-header').boundingBox())!;
    expect(toastBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
    await expectMoves(
      applicant, 'Waiting for the manager: review your documents',
      manager, "Waiting for you: review the household's documents and mark them complete",
    );
    await act(manager, 'Mark as complete');
    await expectStep(applicant, 'Decision');
    await expectMoves(applicant, 'Waiting for the manager: offer you appointment times', manager, 'Waiting for you: offer appointment times');

    const slot = new Date(Date.now() + 3 * 86_400_000);
    const local = `${slot.getFullYear()}-${String(slot.getMonth() + 1).padStart(2, '0')}-${String(slot.getDate()).padStart(2, '0')}T10:30`;
    await act(manager, 'Proceed to appointment scheduling', (d) => d.getByLabel('Appointment time 1').fill(local));
    await expectStep(applicant, 'Appointment scheduling');
    await expectMoves(
      applicant, 'Waiting for you: choose one of the appointment times',
      manager, 'Waiting for the applicant: choose one of the appointment times you offered',
    );
    await act(applicant, 'Schedule appointment', (d) => d.getByRole('radio').first().check());
    await expectStep(applicant, 'Screening');
    await applicant.getByTestId('appointment').waitFor();
    // Times read without seconds.
    expect(await applicant.getByTestId('appointment').textContent()).toMatch(/10:30\sAM$/);

    await expectStep(manager, 'Screening');
    await expectMoves(applicant, 'Waiting for the manager: offer you a unit', manager, 'Waiting for you: offer a unit');
    await act(manager, 'Offer a unit', async (d) => {
      await d.getByRole('checkbox').first().check();
      await d.getByRole('checkbox').nth(1).check();
    }, true);
    await expectStep(applicant, 'Unit offer');
    await expectMoves(applicant, 'Waiting for you: respond to the unit offer', manager, 'Waiting for the applicant: respond to the unit offer');
    // The dashboard names the opportunity the offer is from.
    const opportunityName = (await applicant.getByRole('heading', { level: 1 }).textContent())!.replace('Application details: ', '');
    await applicant.goto('/dashboard');
    await expect.poll(() => applicant.getByTestId('action-items').textContent()).toContain(`Application to ${opportunityName}: respond to the unit offer`);
    await applicant.goto(applicationUrl);
    // The two units offered are not offered again; the rent reads as money.
    await manager.getByRole('button', { name: 'Offer a unit', exact: true }).click();
    const offerDialog = manager.getByRole('dialog');
    await offerDialog.getByText(/Unit 5C, 2 bedrooms, \$\d,\d{3} a month/).waitFor();
    expect(await offerDialog.getByRole('checkbox').count()).toBe(1);
    await offerDialog.getByRole('button', { name: 'Cancel' }).click();
    await act(applicant, 'Answer the unit offer', async (d) => {
      await d.getByRole('radio', { name: /Unit 2A/ }).check();
      await d.getByRole('radio', { name: 'Accept this unit' }).check();
    });
    // Accepting hides the other offer from the applicant.
    await applicant.getByTestId('offers').getByText('accepted').waitFor();
    expect(await applicant.getByTestId('offers').locator('li').count()).toBe(1);

    // The manager's page was loaded before the applicant answered: reload to see the new actions.
    await manager.reload();
    await expectStep(manager, 'Unit offer');
    await expectMoves(
      applicant, 'Waiting for the manager: confirm the unit you accepted',
      manager, 'Waiting for you: confirm the unit the household accepted',
    );
    await act(manager, 'Proceed with the unit offer');
    await expectMoves(
      applicant, 'Waiting for the manager: prepare your income certification (TIC)',
      manager, 'Waiting for you: generate the income certification (TIC)',
    );
    await act(manager, 'Generate income certification (TIC)', undefined, true);
    await expectStep(applicant, 'Income certification');
    await expectMoves(
      applicant, 'Waiting for you: sign the income certification (TIC)',
      manager, 'Waiting for the applicant: sign the income certification (TIC)',
    );
    // The head of household signs, then each adult member (the spouse, drawn in the same session).
    await act(applicant, 'Sign the income certification (TIC)', async (d) => {
      await d.getByText('Signing for: Amina Rahman').waitFor();
      await drawSignature(applicant);
    }, true);
    await act(applicant, 'Sign the income certification (TIC)', async (d) => {
      await d.getByText('Signing for: Karim Rahman').waitFor();
      await drawSignature(applicant);
    });
    await applicant.getByRole('button', { name: /View income certification \(signed\)/ }).waitFor();

    await expectMoves(
      applicant, 'Waiting for the manager: approve your signed income certification',
      manager, 'Waiting for you: approve the signed income certification',
    );
    await act(manager, 'Approve income certification');
    await expectStep(applicant, 'Lease signing');
    await expectMoves(applicant, 'Waiting for you: sign the lease letter', manager, 'Waiting for the applicant: sign the lease letter');
    await act(applicant, 'Sign the lease letter', () => drawSignature(applicant));
    await expectMoves(applicant, 'Waiting for the manager: complete the lease signing', manager, 'Waiting for you: complete the lease signing');
    await act(manager, 'Complete lease signing');

    await expectMoves(applicant, 'Lease signed: welcome home', manager, 'Lease signed: the household is housed');
    // A housed household's application ends as "Lease signed", not "Ended".
    await applicant.getByText('Lease signed', { exact: true }).first().waitFor();
    const steps = applicant.getByRole('region', { name: 'Timeline' }).locator('li');
    expect(await applicant.getByRole('region', { name: 'Timeline' }).locator('li[aria-current="step"]').count()).toBe(0);
    expect(await steps.count()).toBe(11);

    // The opportunity page now points to the household's application (check-application-status).
    await applicant.goto(opportunityUrl);
    await applicant.getByText('Your household has applied to this lottery.').waitFor();
    await applicant.getByRole('link', { name: 'View your application' }).click();
    await applicant.waitForURL(`**${applicationUrl}`);

    await applicant.goto('/opportunities');
    await applicant.getByRole('heading', { level: 1, name: 'Housing opportunities' }).waitFor();
    await expect.poll(() => applicant.getByText('★ Favourite').count()).toBe(1);

    await applicant.goto('/my-favorites');
    await applicant.getByRole('heading', { level: 1, name: 'My favourites' }).waitFor();
    // The list arrives after the heading (its query resolves after the page's first paint).
    await expect.poll(() => applicant.getByRole('listitem').filter({ has: applicant.getByRole('heading', { level: 2 }) }).count()).toBe(1);
    // Nothing went wrong, so no page of the journey logged a console error.
    expect(consoleErrors.flat()).toEqual([]);
  }, 240_000);
});
