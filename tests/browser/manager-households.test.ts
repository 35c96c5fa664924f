/**
 * Browser test of the manager's tenant households screen, read in Bengali on a 375 px phone: the
 * annual recertification refused outside its window (said in words, with the date it opens) and
 * started inside it; an interim one started by keyboard, then refused the same day; and the link
 * that acts for the household through the audited impersonation page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor, watchConsoleErrors } from '../helpers/browser';
import { demoAccount, signIn, startStack, type Stack } from '../helpers/stack';

let browser: Browser;
let stack: Stack;
let context: BrowserContext | undefined;
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  // The signed-in app reads in the language of the user's profile.
  await stack.db.updateTable('users').set({ preferred_language: 'bn' }).where('username', '=', demoAccount('Manager').username).execute();
}, 120_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

/** Nothing in the card wider than the 375 px screen; every control at least 44 px high. */
async function fitsPhone(card: Locator): Promise<void> {
  const box = (await card.boundingBox())!;
  expect(box.x >= 0 && box.x + box.width <= 375, 'the card lies inside the 375 px screen').toBe(true);
  const small = await card.evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>('button, select, a.button')].filter((c) => c.getBoundingClientRect().height < 44).map((c) => `${c.textContent?.trim()} ${c.getBoundingClientRect().height}px`),
  );
  expect(small).toEqual([]);
}

/** A calendar day as a Bengali reader sees it (the web app's formatDate), to find it in a sentence. */
const bnDate = (iso: string) => new Intl.DateTimeFormat('bn-BD', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));

describe("the manager's tenant households", () => {
  it('refuses the annual cycle outside its window in Bengali, starts annual and interim ones, and acts for the household', async () => {
    const tenant = await signIn(stack.app, 'Tenant');
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow();
    // The lease anniversary 200 days away: the annual window (120 days before it) is not open yet.
    const farAnniversary = Date.now() + 200 * DAY;
    await stack.db.updateTable('tenancies').set({ lease_start: `${new Date(farAnniversary).getUTCFullYear() - 2}${isoDay(farAnniversary).slice(4)}` }).where('household_id', '=', household.id).execute();

    const opened = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Manager'), label: 'manager-households', bypassCSP: true });
    context = opened.context;
    const page = opened.page;
    await page.setViewportSize({ width: 375, height: 740 });
    const consoleErrors = watchConsoleErrors(page);
    await page.goto('/manager/recertifications');
    await settled(page);
    await page.getByRole('heading', { level: 1, name: 'ভাড়াটিয়া পরিবারসমূহ' }).waitFor();
    const card = page.getByTestId('tenant-household').filter({ hasText: 'Luis Ortega' });
    await card.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fitsPhone(card);

    // Outside the window the workflow has nothing to open: the card says so, and when it opens.
    await card.getByRole('button', { name: 'বার্ষিক পুনঃপ্রত্যয়ন শুরু করুন' }).click();
    const refusal = card.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('এখনও নয়: এই পরিবারের বার্ষিক পুনঃপ্রত্যয়ন খোলে');
    expect(await refusal.textContent()).toContain(bnDate(isoDay(farAnniversary - 120 * DAY)));

    // Inside the window (anniversary in 30 days) the annual cycle starts and its case opens from the card.
    const nearAnniversary = Date.now() + 30 * DAY;
    await stack.db.updateTable('tenancies').set({ lease_start: `${new Date(nearAnniversary).getUTCFullYear() - 1}${isoDay(nearAnniversary).slice(4)}` }).where('household_id', '=', household.id).execute();
    await card.getByRole('button', { name: 'বার্ষিক পুনঃপ্রত্যয়ন শুরু করুন' }).click();
    await card.getByRole('status').filter({ hasText: 'বার্ষিক পুনঃপ্রত্যয়ন শুরু হয়েছে।' }).waitFor();
    const annual = await stack.db.selectFrom('recertification_cases').select(['id', 'kind', 'deadline']).where('household_id', '=', household.id).where('kind', '=', 'annual').orderBy('started_at', 'desc').executeTakeFirstOrThrow();
    expect(String(annual.deadline).slice(0, 10)).toBe(isoDay(nearAnniversary));
    expect(await card.getByRole('status').getByRole('link').getAttribute('href')).toBe(`/manager/recertification/${annual.id}`);

    // Interim by keyboard: choose the reason with the arrow key, Tab to the button, Enter.
    const reason = card.getByLabel('অন্তর্বর্তী পুনঃপ্রত্যয়নের কারণ');
    await reason.focus();
    await page.keyboard.press('ArrowDown');
    expect(await reason.inputValue()).toBe('household_change');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('অন্তর্বর্তী পুনঃপ্রত্যয়ন শুরু করুন');
    await page.keyboard.press('Enter');
    await card.getByRole('status').filter({ hasText: 'অন্তর্বর্তী পুনঃপ্রত্যয়ন শুরু হয়েছে।' }).waitFor();
    // A second interim the same day is refused, in words.
    await card.getByRole('button', { name: 'অন্তর্বর্তী পুনঃপ্রত্যয়ন শুরু করুন' }).click();
    await card.getByRole('alert').filter({ hasText: 'এই পরিবারের জন্য আজ ইতিমধ্যে একটি অন্তর্বর্তী পুনঃপ্রত্যয়ন শুরু করা হয়েছে।' }).waitFor();
    await card.getByText('সর্বশেষ পুনঃপ্রত্যয়ন: অন্তর্বর্তী', { exact: false }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fitsPhone(card);

    // The latest case opens from the card; its page links to acting for the same household.
    await card.getByRole('link', { name: 'Luis Ortega-এর কেস খুলুন' }).click();
    await page.waitForURL('**/manager/recertification/**');
    expect(await page.getByRole('link', { name: 'এই পরিবারের পক্ষে কাজ করুন' }).getAttribute('href')).toBe(`/request-impersonate-user?userId=${tenant.userId}`);
    await page.getByRole('link', { name: 'সব ভাড়াটিয়া পরিবার' }).click();
    await card.waitFor();

    // Acting for the household goes through the impersonation page, and is audited like any other start.
    const actFor = card.getByRole('link', { name: 'Luis Ortega-এর পক্ষে কাজ করুন' });
    expect(await actFor.getAttribute('href')).toBe(`/request-impersonate-user?userId=${tenant.userId}`);
    await actFor.click();
    await page.waitForURL('**/request-impersonate-user?userId=*');
    await page.getByRole('button', { name: 'শুরু করুন', exact: true }).click();
    await page.waitForURL('**/dashboard');
    const managerId = (await signIn(stack.app, 'Manager')).userId;
    const audit = await stack.db.selectFrom('impersonation_audit').select(['event']).where('real_user_id', '=', managerId).where('acting_user_id', '=', tenant.userId).execute();
    expect(audit.map((a) => a.event)).toContain('start');
    // The browser logs each refused call as a failed resource; those two refusals are the only entries.
    expect(consoleErrors.map((e) => e.replace(/^.*status of (\d+).*\/manager\/(\w+)\/.*$/, '$1 $2'))).toEqual(['404 annual', '409 interim']);
  }, 180_000);
});
