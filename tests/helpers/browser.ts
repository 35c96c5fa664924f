import { mkdir } from 'node:fs/promises';
import { onTestFailed } from 'vitest';
import { chromium, type Browser, type BrowserContext, type LaunchOptions, type Page, type Request } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { demoAccount, type DemoRole } from './stack';

const ARTIFACTS = new URL('../.artifacts/browser/', import.meta.url);

/** Debian's Chromium, headless, with nothing reaching out to the network on its own. */
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ...options,
  });
}

export interface SignedInStorage {
  user: string;
  auth: string;
}

/** Signs a demo account in through the API and returns what the web app keeps in local storage. */
export async function storageFor(app: FastifyInstance, role: DemoRole): Promise<SignedInStorage> {
  const { username, password } = demoAccount(role);
  const response = await app.inject({ method: 'POST', url: '/api/Account/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login as ${role} failed: ${response.body}`);
  const { accessToken, refreshToken, accessTokenExpiresAt, ...user } = response.json().data;
  return { user: JSON.stringify(user), auth: JSON.stringify({ accessToken, refreshToken, accessTokenExpiresAt }) };
}

/**
 * A fresh profile in a language (local storage `i18nextLng`), signed in when `storage` is given;
 * a screenshot is kept when the test fails. `bypassCSP` lets a test add its own script (axe) to a
 * page whose Content-Security-Policy allows only the portal's scripts.
 */
export async function openContext(browser: Browser, baseURL: string, options: { language?: string; storage?: SignedInStorage; label: string; bypassCSP?: boolean }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', bypassCSP: options.bypassCSP ?? false });
  await context.addInitScript(
    ({ language, storage }) => {
      // Frames without storage of their own (a document previewed from a blob: URL) are left alone.
      if (window !== window.top || !window.sessionStorage) return;
      if (sessionStorage.getItem('portal-test-init')) return;
      sessionStorage.setItem('portal-test-init', '1');
      if (language) localStorage.setItem('i18nextLng', language);
      if (storage) {
        localStorage.setItem('user', storage.user);
        localStorage.setItem('auth', storage.auth);
      }
    },
    { language: options.language ?? null, storage: options.storage ?? null },
  );
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const network = watchNetwork(page);
  onTestFailed(async () => {
    // What the page was doing when the test failed goes to the test's output, where CI shows it.
    console.error(`[${options.label}] failed at ${page.url()}\n${network().join('\n')}`);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL(`${options.label}-${Date.now()}.png`, ARTIFACTS).pathname, fullPage: true }).catch(() => undefined);
  });
  return { context, page };
}

/**
 * The page's requests still waiting for an answer, and the last ones that failed or were slow
 * (over a second), each with its method, path and time: a failed browser test prints them.
 */
function watchNetwork(page: Page): () => string[] {
  const started = new Map<Request, number>();
  const notable: string[] = [];
  const name = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}`;
  const note = (line: string) => {
    notable.push(line);
    if (notable.length > 20) notable.shift();
  };
  page.on('request', (request) => started.set(request, Date.now()));
  page.on('requestfinished', (request) => {
    const ms = Date.now() - (started.get(request) ?? Date.now());
    started.delete(request);
    if (ms > 1_000) note(`  slow ${name(request)} ${ms} ms`);
  });
  page.on('requestfailed', (request) => {
    started.delete(request);
    note(`  failed ${name(request)}: ${request.failure()?.errorText ?? ''}`);
  });
  return () => [...notable, ...[...started].map(([request, at]) => `  pending ${name(request)} for ${Date.now() - at} ms`)];
}

/**
 * Closes a context, waiting at most 15 s: a close that does not return (seen once on a loaded CI
 * machine, after a sign-out had reloaded the page) is reported and left to the browser's own close.
 */
export async function closeContext(context: BrowserContext, label: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    context.close().then(() => true),
    new Promise<boolean>((done) => {
      timer = setTimeout(() => done(false), 15_000);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!closed) console.error(`[${label}] the browser context did not close within 15 s`);
}

/** Waits until the page shows its content: no loading placeholder, and web fonts settled. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.page-loading, .loading, [aria-busy="true"]') && document.querySelector('main')?.textContent?.trim());
  // Bounded: a font that never arrives fails here, saying so, rather than hanging the test or
  // letting a later check run on a page still waiting for its fonts.
  const fonts = await page.evaluate(() =>
    Promise.race([document.fonts.ready.then(() => 'loaded'), new Promise<string>((done) => setTimeout(() => done([...document.fonts].filter((f) => f.status === 'loading').map((f) => f.family).join(', ')), 30_000))]),
  );
  if (fonts !== 'loaded') throw new Error(`web fonts still loading after 30 s: ${fonts}`);
}

/**
 * Every console error and uncaught exception of a page, as it happens (no page of a journey
 * logs an error when nothing is wrong; a failed request, a 404 included, is logged by the browser as
 * one). Check the list is empty at the end of the journey.
 */
export function watchConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${new URL(page.url()).pathname}: ${message.text()} ${message.location().url ?? ''}`.trim());
  });
  page.on('pageerror', (error) => errors.push(`${new URL(page.url()).pathname}: ${error.message}`));
  return errors;
}

/** The color-contrast problems axe finds in the toasts on screen (the page's other checks leave them out). */
export async function toastContrastViolations(page: Page): Promise<string[]> {
  const axe = (await import('axe-core')).default;
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe.run;
    const result = await run({ include: [['[data-sonner-toaster]']] }, { runOnly: ['color-contrast'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.failureSummary ?? ''}`));
  });
}
