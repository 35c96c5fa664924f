/**
 * In the browser: when strangers' guesses have throttled sign-in from this address, the
 * login page offers a one-time code by email; the code signs the owner in, and the browser keeps a
 * device token so its next sign-in with the password is not held back by the throttle.
 */
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import { demoAccount, startStack, type Stack } from '../helpers/stack';
import { latestOtp } from '../helpers/identity';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);
let browser: Browser;
let context: BrowserContext;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US' });
});

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  onTestFailed(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`sign-in-code-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return page;
}

async function submitLogin(page: Page, username: string, password: string) {
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

describe('sign-in code when throttled', () => {
  it('offers a code by email after too many attempts; the code signs in, and the device then signs in with its password', async () => {
    const { username, password } = demoAccount('User');
    const userId = (await stack.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const page = await newPage();
    await page.goto('/login');

    // Someone at this address guessed: five failures, then the pair waits.
    for (let i = 0; i < 5; i++) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/Account/login'));
      await submitLogin(page, username, `guess-${i}-wrong`);
      expect((await answered).status()).toBe(401);
    }
    await submitLogin(page, username, password);
    await page.getByRole('alert').getByText('Too many attempts', { exact: false }).waitFor();
    await page.getByText('We can email you a one-time sign-in code instead.', { exact: false }).waitFor();

    // By keyboard: the offer's button, then the code field and Enter.
    await page.getByRole('button', { name: 'Email me a sign-in code' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('a 6-digit code is on its way', { exact: false }).waitFor();
    const code = await latestOtp(stack.db, userId);
    await page.getByLabel('Sign-in code').fill(code);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));

    const deviceTokens = await page.evaluate(() => JSON.parse(localStorage.getItem('deviceTokens') ?? '[]') as string[]);
    expect(deviceTokens).toHaveLength(1);

    // Signed out (as logout clears the session, the device token stays): the password works at once
    // from this browser although this address is still throttled for other devices.
    await page.evaluate(() => {
      for (const key of ['user', 'auth', 'realUser', 'isImpersonating', 'pendingUserId']) localStorage.removeItem(key);
    });
    await page.goto('/login');
    const fresh = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username, password }, remoteAddress: '127.0.0.1' });
    expect(fresh.statusCode).toBe(429);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/Account/login'));
    await submitLogin(page, username, password);
    expect((await answered).status()).toBe(200);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  });
});
