/**
 * Waitlist check-ins in Chromium: a household keeps its place from the link of its
 * notice, signed out (opening the page changes nothing; the button does); a household that did not
 * answer sees its place inactive and restores it, by its link in Spanish and from My Applications in
 * English; a manager sees the waitlist by state, restores a place with a reason, records a returned
 * letter and sets the months between check-ins. Real stack in-process; the check-ins are made by the
 * waitlist workflow's own activities.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createActivities } from '../../activities';
import { DAY, HOUR } from '../../domain/time';
import { seriousAxeViolations } from '../helpers/axe';
import { closeContext, launchChromium, openContext, type SignedInStorage } from '../helpers/browser';
import { insertDrawnLottery, type DrawnLottery } from '../helpers/drawn-lottery';
import { makeUser } from '../helpers/lease-up-users';
import { startStack, type Stack } from '../helpers/stack';

let browser: Browser;
let stack: Stack;
let drawn: DrawnLottery;
let activities: ReturnType<typeof createActivities>;
let household: Awaited<ReturnType<typeof makeUser>>;
let manager: Awaited<ReturnType<typeof makeUser>>;
let apps: { id: string; rank: number; logNumber: string }[];
const contexts: { context: BrowserContext; label: string }[] = [];

const sweep = (name: 'askCheckIns' | 'deactivateUnanswered', cycle: number, askAt: number) =>
  activities[name]({ opportunityId: drawn.opportunityId, cycle, askAt, now: Date.now(), afterRank: 0, limit: 200 });

/** The link of the latest notice to an application, as its email carries it (the outbox keeps it until sent). */
async function linkOf(applicationId: string, template: 'waitlist-check-in' | 'waitlist-inactive'): Promise<string> {
  const row = await stack.db
    .selectFrom('notification_outbox')
    .select('params')
    .where('template', '=', template)
    .where('channel', '=', 'email')
    .where(({ eb, ref }) => eb(eb.fn('jsonb_extract_path_text', [ref('params'), eb.val('applicationId')]), '=', applicationId))
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return String((row.params as { path: string }).path);
}

const placeOf = (applicationId: string) =>
  stack.db.selectFrom('applications').select(['waitlist_state', 'waitlist_confirmed_at']).where('id', '=', applicationId).executeTakeFirstOrThrow();

async function open(label: string, options: { language?: string; storage?: SignedInStorage } = {}): Promise<Page> {
  const opened = await openContext(browser, stack.baseUrl, { ...options, label: `waitlist-${label}`, bypassCSP: true });
  contexts.push({ context: opened.context, label });
  return opened.page;
}

async function fits375(page: Page): Promise<void> {
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
}

beforeAll(async () => {
  stack = await startStack({ listen: true, seed: false });
  activities = createActivities({ db: stack.db, blobs: stack.blobs });
  drawn = await insertDrawnLottery(stack.db, { households: 6, units: 2 });
  const opportunity = await stack.db.selectFrom('opportunities').select('organization_id').where('id', '=', drawn.opportunityId).executeTakeFirstOrThrow();
  await stack.db
    .insertInto('units')
    .values(['1 bedroom', '2 bedroom'].map((bedroom, i) => ({ opportunity_id: drawn.opportunityId, unit_number: `${i + 1}A`, bedroom_type: bedroom, address: '1 Draw Street', accessibility: '[]', monthly_rent: '1200', ami_percent: 60 })))
    .execute();
  household = await makeUser(stack, { role: 'User' });
  manager = await makeUser(stack, { role: 'Manager', organizationId: opportunity.organization_id });
  const ranked = await stack.db.selectFrom('applications').select(['id', 'lottery_rank', 'log_number']).where('opportunity_id', '=', drawn.opportunityId).orderBy('lottery_rank').execute();
  apps = ranked.map((r) => ({ id: r.id, rank: r.lottery_rank!, logNumber: r.log_number! }));
  // The signed-in household holds the application ranked 2.
  await stack.db.updateTable('applications').set({ household_id: household.householdId!, applicant_user_id: household.userId }).where('id', '=', apps[1]!.id).execute();
  browser = await launchChromium();
});

afterAll(async () => {
  for (const { context, label } of contexts) await closeContext(context, label);
  await browser?.close();
  await stack?.close();
});

describe('waitlist check-ins on the web', () => {
  it('keeps a place from the link of the notice, signed out: opening changes nothing, the button does', async () => {
    await sweep('askCheckIns', 1, Date.now() - HOUR);
    const page = await open('keep-link');
    await page.goto(await linkOf(apps[0]!.id, 'waitlist-check-in'));
    await page.getByRole('heading', { level: 1, name: 'Your place on the waitlist' }).waitFor();
    await page.getByTestId('waitlist-next').filter({ hasText: 'Press "Keep my place" by' }).waitFor();
    const keep = page.getByRole('button', { name: 'Keep my place' });
    await keep.waitFor();
    expect((await placeOf(apps[0]!.id)).waitlist_confirmed_at).toBeNull();
    await fits375(page);

    await keep.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Thank you: your place is kept.' }).waitFor();
    await page.getByTestId('waitlist-next').filter({ hasText: 'Nothing to do now.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Keep my place' }).count()).toBe(0);
    expect((await placeOf(apps[0]!.id)).waitlist_confirmed_at).not.toBeNull();
  });

  it('a household that did not answer sees its place inactive and restores it: by its link in Spanish, from My Applications in English', async () => {
    // A check-in asked 31 days ago that nobody answered: the workflow's sweep makes them inactive.
    const askAt = Date.now() - 31 * DAY;
    await sweep('askCheckIns', 2, askAt);
    expect((await sweep('deactivateUnanswered', 2, askAt)).count).toBe(6);

    const es = await open('restore-link-es', { language: 'es' });
    await es.goto(await linkOf(apps[0]!.id, 'waitlist-inactive'));
    await es.getByRole('heading', { level: 1, name: 'Su lugar en la lista de espera' }).waitFor();
    await es.getByText('Inactivo', { exact: true }).waitFor();
    const restore = es.getByRole('button', { name: 'Recuperar mi lugar' });
    await restore.waitFor();
    expect((await placeOf(apps[0]!.id)).waitlist_state).toBe('inactive');
    await fits375(es);
    await restore.click();
    await es.getByRole('status').filter({ hasText: 'Su lugar fue recuperado.' }).waitFor();
    await es.getByText('Activo', { exact: true }).waitFor();
    expect((await placeOf(apps[0]!.id)).waitlist_state).toBe('active');

    const en = await open('restore-mine', { storage: household.storage });
    await en.goto('/myApplications');
    const section = en.getByTestId('where-i-stand');
    await section.getByRole('heading', { name: 'Where I stand on waitlists' }).waitFor();
    await section.getByText('Inactive', { exact: true }).waitFor();
    await section.getByText('Not counted while your place is inactive').waitFor();
    expect(await section.getByRole('button', { name: 'Keep my place' }).count()).toBe(0);
    await fits375(en);
    await section.getByRole('button', { name: 'Restore my place' }).click();
    await section.getByText('Active', { exact: true }).waitFor();
    // Rank 1 restored by its link, and now this one: second of the two active households.
    await section.getByText('2 of 2', { exact: true }).waitFor();
    expect((await placeOf(apps[1]!.id)).waitlist_state).toBe('active');

    // The unit sizes it cannot use, for this opportunity.
    await section.getByRole('checkbox', { name: '2 bedroom' }).check();
    await section.getByRole('button', { name: 'Save unit sizes' }).click();
    await section.getByText('Unit sizes saved.').waitFor();
    expect((await stack.db.selectFrom('applications').select('declined_bedroom_types').where('id', '=', apps[1]!.id).executeTakeFirstOrThrow()).declined_bedroom_types).toEqual(['2 bedroom']);
  });

  it('lets a manager see the waitlist by state, restore with a reason, record a returned letter and set the check-in months', async () => {
    const page = await open('manager', { storage: manager.storage });
    // The lottery written straight into the tables has no lottery view for the page that links here: opened directly.
    await page.goto(`/manager/opportunities/${drawn.opportunityId}/waitlist`);
    await page.getByRole('heading', { level: 1, name: 'Waitlist' }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: apps[0]!.logNumber, exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(3);

    await page.getByRole('button', { name: 'Inactive', exact: true }).click();
    await table.getByRole('cell', { name: apps[2]!.logNumber, exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(5);
    expect(await table.getByRole('row').nth(1).textContent()).toContain('Did not answer');
    await fits375(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: `Restore place ${apps[2]!.logNumber}` }).click();
    const dialog = page.getByRole('dialog', { name: `Restore the place of ${apps[2]!.logNumber}` });
    await dialog.getByLabel('Reason (kept for staff)').fill('Called the office on the 3rd');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restore place' }).click();
    await expect.poll(() => table.getByRole('cell', { name: apps[2]!.logNumber, exact: true }).count()).toBe(0);
    expect((await placeOf(apps[2]!.id)).waitlist_state).toBe('active');

    await page.getByRole('button', { name: `Record returned letter ${apps[3]!.logNumber}` }).click();
    await expect.poll(() => table.getByRole('cell', { name: apps[3]!.logNumber, exact: true }).count()).toBe(0);
    expect((await placeOf(apps[3]!.id)).waitlist_state).toBe('active');

    await page.getByRole('button', { name: 'Active', exact: true }).click();
    const restored = table.getByRole('row').filter({ hasText: apps[3]!.logNumber });
    await expect.poll(() => restored.textContent()).toContain('Returned letter');

    await page.getByLabel('Months between check-ins').fill('3');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Check-in interval saved.').waitFor();
    expect((await stack.db.selectFrom('opportunities').select('waitlist_check_in_months').where('id', '=', drawn.opportunityId).executeTakeFirstOrThrow()).waitlist_check_in_months).toBe(3);
  });

  it('pages a long waitlist by rank with Load more', async () => {
    const long = await insertDrawnLottery(stack.db, { households: 60, units: 2 });
    const org = await stack.db.selectFrom('opportunities').select('organization_id').where('id', '=', long.opportunityId).executeTakeFirstOrThrow();
    const staff = await makeUser(stack, { role: 'Manager', organizationId: org.organization_id });
    const page = await open('manager-paging', { storage: staff.storage });
    await page.goto(`/manager/opportunities/${long.opportunityId}/waitlist`);
    const rows = page.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(51);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(61);
    expect(await rows.nth(60).locator('td').nth(1).textContent()).toBe('60');
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });
});
