/**
 * What a failed message looks like in Chromium against the real stack: a text the provider could
 * not deliver shows on the manager's application page and in the operator console, with the
 * reason; a household whose number texted STOP reads so in its settings (in Spanish). No page logs
 * a console error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { setOptedOut } from '../../infra/notifications/sms-opt-outs';
import { closeContext, launchChromium, openContext, storageFor, watchConsoleErrors } from '../helpers/browser';
import { applyToSeededRental } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let browser: Browser;
let applicationId: string;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  const applicant = await signIn(stack.app, 'User');
  applicationId = await applyToSeededRental(stack, applicant);
  // The offer-expiry notice went by text only, and the provider reported it undelivered.
  const notice = `lease-up:${applicationId}:UnitOfferExpired:offer-1`;
  await stack.db
    .insertInto('notification_outbox')
    .values({
      user_id: applicant.userId,
      channel: 'sms',
      to_address: '(718) 555-0166',
      template: 'lease-up-offer-expired',
      language: 'es',
      params: JSON.stringify({ applicationId, offerId: 'offer-1' }),
      dedupe_key: `${notice}:sms`,
      notice_key: notice,
      case_key: `lease-up:${applicationId}`,
      status: 'sent',
      provider_message_id: 'SM00000000000000000000000000000001',
      delivery_status: 'undelivered',
      undelivered_reason: 'undelivered',
      last_error: 'the provider reported undelivered (error 30003)',
    })
    .execute();
  await stack.db.updateTable('users').set({ phone_number: '(718) 555-0166', notify_sms: true, preferred_language: 'es' }).where('id', '=', applicant.userId).execute();
  await setOptedOut(stack.db, '(718) 555-0166', true);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function openAs(role: 'User' | 'Manager' | 'Admin', label: string, language?: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, role), label: `undelivered-${label}`, ...(language ? { language } : {}) });
  page.setDefaultTimeout(20_000);
  return { page, errors: watchConsoleErrors(page), close: () => closeContext(context, `undelivered-${label}`) };
}

describe('undelivered notices and opt-outs in the browser', () => {
  it('the manager reads on the application which notice reached nobody, and why', async () => {
    const manager = await openAs('Manager', 'manager');
    await manager.page.goto(`/myApplications/${applicationId}`);
    const caseFile = manager.page.getByRole('region', { name: 'Case file' });
    await caseFile.getByRole('heading', { name: 'Notices not delivered' }).waitFor();
    await expect.poll(() => caseFile.getByTestId('undelivered-notices').textContent()).toContain('Unit offer expired');
    expect(await caseFile.getByTestId('undelivered-notices').textContent()).toContain('Text message not delivered: the phone network could not deliver it');
    expect(manager.errors).toEqual([]);
    await manager.close();
  });

  it('the operator console lists it with its case', async () => {
    const admin = await openAs('Admin', 'admin');
    await admin.page.goto('/operator');
    const section = admin.page.getByRole('region', { name: 'Notices not delivered' });
    await expect.poll(() => section.getByTestId('undelivered-notices').textContent()).toContain(`case lease-up:${applicationId}`);
    expect(await section.getByTestId('undelivered-notices').textContent()).toContain('Text message not delivered');
    expect(admin.errors).toEqual([]);
    await admin.close();
  });

  it('the household reads in its settings, in Spanish, that its number texted STOP', async () => {
    const household = await openAs('User', 'household', 'es');
    await household.page.goto('/profile-setting');
    await expect.poll(() => household.page.getByTestId('sms-opted-out').textContent()).toContain('Este número de teléfono envió STOP');
    expect(household.errors).toEqual([]);
    await household.close();
  });
});
