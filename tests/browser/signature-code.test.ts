/**
 * Spec section 2: a signature change is confirmed by a code the person chooses to get by text
 * message or e-mail; with no phone on file, the text option says 'No phone number added'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openContext, settled, storageFor } from '../helpers/browser';
import { latestMessage, latestOtp } from '../helpers/identity';
import { demoAccount, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A stroke across the account's signature pad, then Save: the confirmation dialog opens. */
async function drawAndSave(page: Page) {
  const canvas = page.getByTestId('account-signature');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.6);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.3, { steps: 10 });
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.6, { steps: 10 });
  await page.mouse.up();
  await page.getByTestId('account-signature-preview').locator('img').waitFor();
  await page.getByRole('button', { name: 'Save signature' }).click();
  return page.getByRole('dialog', { name: 'Confirm it is you' });
}

describe('the signature code in the browser', () => {
  it('goes by text message when chosen, and the code saves the signature', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Tenant'), label: 'signature-sms' });
    const user = await stack.db.selectFrom('users').select('id').where('username', '=', demoAccount('Tenant').username).executeTakeFirstOrThrow();
    await page.goto('/profile-setting');
    await settled(page);
    const dialog = await drawAndSave(page);
    await dialog.getByRole('button', { name: 'Send by text message' }).click();
    await dialog.getByRole('status').filter({ hasText: 'OTP sent to your registered contact' }).waitFor();
    expect(await latestMessage(stack.db, user.id, 'otp')).toMatchObject({ channel: 'sms' });
    await dialog.getByLabel('6-digit code').fill(await latestOtp(stack.db, user.id));
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Your signature is saved.').waitFor();
    await context.close();
  });

  it("says 'No phone number added' and sends by e-mail when there is no phone on file", async () => {
    const user = await stack.db.selectFrom('users').select('id').where('username', '=', demoAccount('User').username).executeTakeFirstOrThrow();
    await stack.db.updateTable('users').set({ phone_number: null }).where('id', '=', user.id).execute();
    const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'User'), label: 'signature-no-phone' });
    await page.goto('/profile-setting');
    await settled(page);
    const dialog = await drawAndSave(page);
    expect(await dialog.getByRole('button', { name: 'Send by text message' }).isDisabled()).toBe(true);
    await dialog.getByText('No phone number added. Add one to your profile, or get the code by email.').waitFor();
    await dialog.getByRole('button', { name: 'Send by email' }).click();
    await dialog.getByRole('status').filter({ hasText: 'OTP sent to your registered contact' }).waitFor();
    expect(await latestMessage(stack.db, user.id, 'otp')).toMatchObject({ channel: 'email' });
    await context.close();
  });
});
