/**
 * Ambassadors and admins in the browser. Real stack in-process; the notification
 * delivery loop writes .eml files to a temporary folder, as on the embedded default, and the code
 * the household reads out at the ambassador's desk is taken from that delivered message.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { MailDirTransport, startDeliveryLoop } from '../../infra/notifications';
import { demoAccount, eventually, startStack, type DemoRole, type Stack } from '../helpers/stack';
import { makeUser, TEST_PASSWORD } from '../helpers/ambassador';
import { seriousAxeViolations } from '../helpers/axe';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);
let browser: Browser;
let stack: Stack;
let mailDir: string;
let delivery: { stop(): Promise<void> };
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  stack = await startStack({ listen: true });
  mailDir = await mkdtemp(join(tmpdir(), 'portal-mail-'));
  delivery = startDeliveryLoop(
    { db: stack.db, transports: { email: new MailDirTransport(mailDir, 'Housing Portal <no-reply@portal.test>'), sms: { send: async () => undefined } }, context: { baseUrl: stack.baseUrl } },
    200,
  );
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await delivery?.stop();
  await stack?.close();
  if (mailDir) await rm(mailDir, { recursive: true, force: true });
});

async function newPage(label: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US', bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`ambassador-${label}-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return page;
}

async function logIn(page: Page, who: DemoRole | { username: string; password: string }) {
  const { username, password } = typeof who === 'string' ? demoAccount(who) : who;
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** The access code in the newest delivered email to this address. */
async function deliveredAccessCode(to: string): Promise<string> {
  return eventually(async () => {
    const files = (await readdir(mailDir)).filter((f) => f.endsWith(`${to}.eml`)).sort();
    for (const file of files.reverse()) {
      const eml = (await readFile(join(mailDir, file), 'utf8')).replace(/=\r?\n/g, '');
      const code = /tell them this code: (\d{6})/.exec(eml)?.[1];
      if (code) return code;
    }
    return undefined;
  });
}

async function expectAccessible(page: Page, label: string) {
  expect(await seriousAxeViolations(page), label).toEqual([]);
}

describe('ambassadors and admins in the browser', () => {
  it('an ambassador sees counts, finds a user, asks for access, the household grants it by code, the ambassador acts and exits; the household sees it and revokes', async () => {
    const page = await newPage('ambassador');
    await logIn(page, 'HousingAmbassador');
    await page.waitForURL('**/ambassador/dashboard');
    const residents = await stack.db
      .selectFrom('users as u')
      .innerJoin('organizations as o', 'o.id', 'u.organization_id')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('o.slug', '=', 'riverside')
      .where('u.role', 'in', ['User', 'Tenant'])
      .executeTakeFirstOrThrow();
    await expect.poll(() => page.getByTestId('count-users').textContent()).toBe(String(residents.n));
    await expectAccessible(page, 'ambassador dashboard');

    // The site name leads an ambassador to their own home, not to /dashboard.
    await page.getByRole('link', { name: 'Housing Portal' }).first().click();
    await page.waitForURL('**/ambassador/dashboard');

    await page.getByRole('link', { name: 'Find a user' }).click();
    await page.waitForURL('**/ambassador/users');
    await page.getByLabel('Search by name, user name, email or phone').fill('ortega');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('rowheader', { name: 'Luis Ortega' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await expectAccessible(page, 'ambassador users');
    await page.getByRole('link', { name: 'Open Luis Ortega' }).click();
    await page.waitForURL(/\/ambassdor\/user\/[0-9a-f-]+\/dashboard$/);
    await page.getByRole('heading', { name: 'Luis Ortega', level: 1 }).waitFor();
    await page.getByText("The household's profile, applications and recertification show here once it grants access.").waitFor();

    await page.getByRole('button', { name: 'Ask for access' }).click();
    await page.getByText('Waiting for the household').waitFor();
    const code = await deliveredAccessCode('tenant@example.org');
    await page.getByLabel('Code from the household').fill(code);
    await page.getByRole('button', { name: 'Confirm code' }).click();
    await page.getByText(/^Granted until /).waitFor();
    await page.getByText('Profile complete').waitFor();
    await expectAccessible(page, 'user dashboard');

    await page.getByRole('button', { name: 'Act for Luis Ortega' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('You are acting for Luis Ortega (signed in as Sam Okafor).').waitFor();
    await page.getByRole('link', { name: 'My Documents' }).click();
    await page.waitForURL('**/myDocument');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Stop acting for this user' }).click();
    await page.waitForURL('**/ambassador/dashboard');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!).role).toBe('HousingAmbassador');

    // The household: what was done for it, then it stops the access.
    const household = await newPage('household');
    await logIn(household, 'Tenant');
    await household.waitForURL('**/dashboard');
    await household.goto('/profile-setting');
    const section = household.locator('section').filter({ has: household.getByRole('heading', { name: 'Help from housing ambassadors' }) });
    await section.getByRole('heading', { name: 'Riverside Housing Partners' }).waitFor();
    await section.getByRole('cell', { name: 'GET /api/Document/list', exact: false }).first().waitFor().catch(async () => {
      // The documents page's list call, whatever its exact path: any request made for the household is listed.
      await section.getByRole('cell', { name: /^(GET|POST) \/api\// }).first().waitFor();
    });
    await section.getByRole('cell', { name: 'Started acting for you' }).waitFor();
    expect(await section.getByRole('cell', { name: 'Sam Okafor' }).count()).toBeGreaterThan(2);
    await expectAccessible(household, 'household settings');
    // Keeping the help for another period moves the end (the grant's durable case takes it).
    const before = (await stack.db.selectFrom('access_grants as g').innerJoin('users as u', 'u.id', 'g.user_id').select('g.expires_at').where('u.username', '=', 'tenant').where('g.status', '=', 'granted').executeTakeFirstOrThrow()).expires_at!;
    await section.getByRole('button', { name: 'Keep Riverside Housing Partners for 90 more days' }).click();
    await household.getByText('Access extended.').waitFor();
    await expect
      .poll(async () => (await stack.db.selectFrom('access_grants as g').innerJoin('users as u', 'u.id', 'g.user_id').select('g.expires_at').where('u.username', '=', 'tenant').where('g.status', '=', 'granted').executeTakeFirstOrThrow()).expires_at!.getTime())
      .toBeGreaterThan(before.getTime());
    await section.getByRole('button', { name: 'Stop access for Riverside Housing Partners' }).click();
    await section.getByText('No organization has asked to act for you.').waitFor();
    const grant = await stack.db.selectFrom('access_grants as g').innerJoin('users as u', 'u.id', 'g.user_id').select('g.status').where('u.username', '=', 'tenant').executeTakeFirstOrThrow();
    expect(grant.status).toBe('revoked');

    // The ambassador's page now shows the access stopped, and no way to act.
    await page.goto('/ambassador/users');
    await page.getByRole('rowheader', { name: 'Luis Ortega' }).waitFor();
    await page.getByText('Stopped by the household').waitFor();
    expect(await page.getByRole('button', { name: 'Act for Luis Ortega' }).count()).toBe(0);
    // A long walk through two sessions: a loaded CI machine takes over half a minute.
  }, 120_000);

  it('an admin creates an organisation, assigns a manager, and deactivates a user who is signed out and cannot sign in', async () => {
    const pat = await makeUser(stack.db, { role: 'User', organizationId: null, firstName: 'Pat', lastName: 'Doe', household: true });
    const patPage = await newPage('deactivated-user');
    await logIn(patPage, { username: pat.username, password: TEST_PASSWORD });
    await patPage.waitForURL('**/dashboard');

    const page = await newPage('admin');
    await logIn(page, 'Admin');
    await page.waitForURL('**/dashboard');
    await page.getByRole('navigation').getByRole('link', { name: 'Organizations' }).click();
    await page.waitForURL('**/admin/organizations');
    await page.getByRole('button', { name: 'Create organization' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create organization' });
    await dialog.getByLabel('Name', { exact: true }).fill('Hudson Yards Homes');
    await dialog.getByLabel('Short name (in the registration link)').fill('hudson-yards');
    await dialog.getByLabel('Access period (days)').fill('60');
    await dialog.getByLabel('Kind').selectOption('property_manager');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: 'Hudson Yards Homes' }).waitFor();
    await expectAccessible(page, 'admin organizations');

    await page.getByRole('button', { name: 'Staff of Hudson Yards Homes' }).click();
    await page.getByLabel('Find a manager or ambassador').fill('grace');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('button', { name: 'Assign Grace Chen' }).click();
    await page.getByRole('button', { name: 'Remove Grace Chen' }).waitFor();
    const manager = await stack.db.selectFrom('users as u').innerJoin('organizations as o', 'o.id', 'u.organization_id').select('o.slug').where('u.username', '=', 'manager').executeTakeFirstOrThrow();
    expect(manager.slug).toBe('hudson-yards');

    await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/admin/users');
    await page.getByLabel('Search by name, user name, email or phone').fill(pat.username);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('rowheader', { name: 'Pat Doe' }).waitFor();
    await expectAccessible(page, 'admin users');
    await page.getByRole('button', { name: 'Deactivate Pat Doe' }).click();
    await page.getByRole('dialog', { name: 'Deactivate Pat Doe' }).getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Reactivate Pat Doe' }).waitFor();

    // Pat's open session stops at its next request, and signing in again fails.
    await patPage.getByRole('link', { name: 'My Documents' }).click();
    await patPage.waitForURL(/\/login/);
    await patPage.getByLabel('Username or email').fill(pat.username);
    await patPage.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await patPage.getByRole('button', { name: 'Log in', exact: true }).click();
    await patPage.getByText('Login failed').waitFor();

    // The change is in Pat's history.
    await page.getByRole('button', { name: 'History of Pat Doe' }).click();
    await page.getByRole('dialog', { name: 'History of Pat Doe' }).getByText(/Deactivated by Dana Kowalski/).waitFor();
  });
});
