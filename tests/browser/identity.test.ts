/**
 * Identity in the browser: sign-in with MFA reading the code from the delivered email,
 * the four languages, font size, the idle modal (Playwright's clock) and the guarded-route redirect.
 * Real stack in-process; the notification delivery loop writes .eml files to a temporary folder,
 * as on the embedded default.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, onTestFinished } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { MailDirTransport, startDeliveryLoop } from '../../infra/notifications';
import { demoAccount, eventually, startStack, type Stack } from '../helpers/stack';
import { grantAccess } from '../helpers/ambassador';
import en from '../../web/src/i18n/locales/en/profileSetting.json' with { type: 'json' };
import es from '../../web/src/i18n/locales/es/profileSetting.json' with { type: 'json' };
import zh from '../../web/src/i18n/locales/zh/profileSetting.json' with { type: 'json' };
import bn from '../../web/src/i18n/locales/bn/profileSetting.json' with { type: 'json' };

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
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US' });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`identity-${label}-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return page;
}

async function fillLogin(page: Page, role: 'User' | 'Manager' | 'Tenant' | 'HousingAmbassador') {
  const { username, password } = demoAccount(role);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** The code in the newest delivered email to this address. */
async function deliveredCode(to: string): Promise<string> {
  return eventually(async () => {
    const files = (await readdir(mailDir)).filter((f) => f.endsWith(`${to}.eml`)).sort();
    const last = files.at(-1);
    if (!last) return undefined;
    const eml = (await readFile(join(mailDir, last), 'utf8')).replace(/=\r?\n/g, '');
    return /code is (\d{6})/.exec(eml)?.[1];
  });
}

describe('identity in the browser', () => {
  it('signs in with MFA using the code from the delivered email', async () => {
    await stack.db.updateTable('users').set({ mfa_enabled: true }).where('username', '=', 'manager').execute();
    const page = await newPage('mfa');
    await page.goto('/login');
    await fillLogin(page, 'Manager');
    await page.waitForURL('**/verify-otp');
    const code = await deliveredCode('manager@example.org');
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    expect(await page.evaluate(() => localStorage.getItem('pendingUserId'))).toBeNull();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!).role).toBe('Manager');
    await stack.db.updateTable('users').set({ mfa_enabled: false }).where('username', '=', 'manager').execute();
  });

  it('an ambassador lands on their dashboard, acts for a tenant with a banner, and exits back', async () => {
    const tenant = await stack.db.selectFrom('users').select(['id', 'organization_id']).where('username', '=', 'tenant').executeTakeFirstOrThrow();
    // An ambassador acts only for a household that granted access (its journey is tests/browser/ambassador.test.ts).
    const ambassador = await stack.db.selectFrom('users').select('id').where('username', '=', demoAccount('HousingAmbassador').username).executeTakeFirstOrThrow();
    await grantAccess(stack.db, { userId: tenant.id, organizationId: tenant.organization_id!, requestedBy: ambassador.id });
    const page = await newPage('impersonation');
    await page.goto('/login');
    await fillLogin(page, 'HousingAmbassador');
    await page.waitForURL('**/ambassador/dashboard');
    await page.goto(`/request-impersonate-user?userId=${tenant.id}`);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('You are acting for Luis Ortega (signed in as Sam Okafor).').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('isImpersonating'))).toBe('true');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('realUser')))!).role).toBe('HousingAmbassador');
    await page.getByRole('button', { name: 'Stop acting for this user' }).click();
    await page.waitForURL('**/ambassador/dashboard');
    expect(await page.evaluate(() => localStorage.getItem('isImpersonating'))).toBeNull();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!).role).toBe('HousingAmbassador');
    const audit = await stack.db.selectFrom('impersonation_audit').select('event').where('acting_user_id', '=', tenant.id).execute();
    expect(audit.map((a) => a.event)).toEqual(expect.arrayContaining(['start', 'exit']));
  });

  it('remembers the origin of a guarded page and returns there after sign-in', async () => {
    const page = await newPage('redirect');
    await page.goto('/profile-setting');
    await page.waitForURL(/\/login\?redirect=%2Fprofile-setting$/);
    await fillLogin(page, 'User');
    await page.waitForURL('**/profile-setting');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  });

  it('switches the settings language to each of the four languages and keeps it on the account', async () => {
    const page = await newPage('language');
    await page.goto('/login?redirect=%2Fprofile-setting');
    await fillLogin(page, 'Tenant');
    await page.waitForURL('**/profile-setting');
    const titles = { es: es.title, zh: zh.title, bn: bn.title, en: en.title };
    for (const [lang, title] of Object.entries(titles)) {
      await page.locator('section').filter({ has: page.locator('#language-heading') }).locator('select').selectOption(lang);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      const saved = await eventually(async () => {
        const row = await stack.db.selectFrom('users').select('preferred_language').where('username', '=', 'tenant').executeTakeFirstOrThrow();
        return row.preferred_language === lang ? row : undefined;
      });
      expect(saved.preferred_language).toBe(lang);
    }
  });

  it('keeps a language picked before the saved one arrives (a slow connection)', async () => {
    // The manager's saved language is Chinese; its settings answer is held back until Spanish is picked.
    const saved = await stack.db.selectFrom('users').select(['id', 'preferred_language']).where('username', '=', demoAccount('Manager').username).executeTakeFirstOrThrow();
    await stack.db.updateTable('users').set({ preferred_language: 'zh' }).where('id', '=', saved.id).execute();
    onTestFinished(async () => {
      await stack.db.updateTable('users').set({ preferred_language: saved.preferred_language }).where('id', '=', saved.id).execute();
    });
    const page = await newPage('late-language');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let heldBack = 0;
    await page.route('**/api/UserProfile/settings', async (route) => {
      if (route.request().method() === 'GET') {
        heldBack++;
        await held;
      }
      await route.continue();
    });
    await page.goto('/login');
    await fillLogin(page, 'Manager');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await expect.poll(() => heldBack).toBeGreaterThan(0);
    await page.getByLabel('Language', { exact: true }).selectOption('es');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('es');
    // Chinese texts the page would load once the saved language applied (one chunk per namespace).
    const chinese: Promise<unknown>[] = [];
    page.on('request', (request) => {
      if (/-zh-[^/]*\.js$/.test(new URL(request.url()).pathname)) chinese.push(request.response());
    });
    const answered = page.waitForResponse((r) => r.url().includes('/api/UserProfile/settings') && r.request().method() === 'GET');
    release();
    const settings = await (await answered).json();
    expect(settings.data.preferredReadingLanguage).toBe('zh');
    // The answer has rendered (two frames), and any Chinese chunk it asked for has arrived and been applied.
    const frames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await frames();
    await Promise.all(chinese);
    await frames();
    expect(chinese).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await page.getByLabel('Idioma', { exact: true }).inputValue()).toBe('es');
  });

  it('changes the font size of the whole interface and keeps it after a reload', async () => {
    const page = await newPage('font');
    await page.goto('/login?redirect=%2Fprofile-setting');
    await fillLogin(page, 'User');
    await page.waitForURL('**/profile-setting');
    const size = () => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('h1')!).fontSize));
    await page.getByRole('radio', { name: 'Medium' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('font-medium');
    const medium = await size();
    await page.getByRole('radio', { name: 'Large' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('font-large');
    expect(await size()).toBeGreaterThan(medium);
    await page.reload();
    await page.getByRole('radio', { name: 'Large' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('font-large');
    expect(await page.getByRole('radio', { name: 'Large' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Small' }).check();
    await expect.poll(size).toBeLessThan(medium);
  });

  it("shows 'Are You Still There?' after 30 idle minutes, stays on request, and logs out when the countdown ends", async () => {
    const page = await newPage('idle');
    // React renders a state set by a timer in a task of its scheduler's message channel: two message
    // round trips posted after a jump run after that render (one for a render that yields once).
    const rendered = () =>
      page.evaluate(async () => {
        for (let i = 0; i < 2; i++) {
          await new Promise<void>((done) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => done();
            channel.port2.postMessage(null);
          });
        }
      });
    // A jump of the fake clock would time out requests in flight, so each jump waits until none is
    // and a render started none (the barrier: every request the page started has finished or failed).
    // The live event streams (chat, tickets) stay open by design and time nothing out: not counted.
    const inFlight = new Set<unknown>();
    let started = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/events')) return;
      inFlight.add(r);
      started += 1;
    });
    page.on('requestfinished', (r) => inFlight.delete(r));
    page.on('requestfailed', (r) => inFlight.delete(r));
    const settle = () =>
      expect
        .poll(async () => {
          const before = started;
          await rendered();
          return inFlight.size === 0 && started === before;
        }, { message: 'the page quiet: no request in flight, none started by a render' })
        .toBe(true);
    await page.clock.install();
    await page.goto('/login?redirect=%2Fprofile-setting');
    await fillLogin(page, 'User');
    await page.waitForURL('**/profile-setting');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await settle();
    const dialog = page.getByRole('dialog', { name: 'Are You Still There?' });
    await page.clock.fastForward('29:00');
    await rendered();
    expect(await dialog.isVisible()).toBe(false);
    await settle();
    await page.clock.fastForward('01:05');
    await dialog.waitFor();
    await expect.poll(() => dialog.getByRole('timer').textContent()).toMatch(/[45]:\d\d/);
    await dialog.getByRole('button', { name: 'Stay Logged In' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await settle();
    await page.clock.fastForward('30:05');
    await dialog.waitFor();
    await settle();
    await page.clock.fastForward('05:05');
    // Logging out may navigate twice (to /login, then with the redirect kept); wait for where it ends.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/login');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('auth')).catch(() => 'navigating')).toBeNull();
  });
});
