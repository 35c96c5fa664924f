/**
 * Axe-core on every route of spec section 2 that is built, in the four languages, signed
 * out and signed in as each role that may open it. Counts serious and critical violations, prints
 * them as a table of routes × languages, and fails on any. One browser; one context per role and
 * language (the language is the page's own choice, read back from <html lang>); axe audits Spanish
 * and Bengali pages at phone size. Each page is also looked at on a phone (375×740): nothing
 * scrolls sideways and its first heading is in the top third of the screen; and no page logs a
 * console error (a signed-out page asking an authenticated route would log its 401).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LANGUAGES } from '../../domain/account';
import { launchChromium, openContext, settled, storageFor, watchConsoleErrors } from '../helpers/browser';
import { latestMessage } from '../helpers/identity';
import { demoAccount, eventually, signIn, startStack, type DemoRole, type Stack } from '../helpers/stack';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let stack: Stack;
let browser: Browser;
const ids = { opportunity: '', application: '', recertification: '', relocation: '', organization: '', resetPath: '', userId: '' };
const tokens = new Map<DemoRole, { authorization: string }>();

/** Who sees each route: `out` = signed out; otherwise the roles that may open it (web/src/config/roles.ts). */
type Viewer = 'out' | DemoRole;
const RESIDENTS: Viewer[] = ['User', 'Tenant'];
const EVERYONE: Viewer[] = ['User', 'Tenant', 'Manager', 'HousingAmbassador', 'Admin'];

/** A page state beyond the page as loaded: its name in the table, and how to reach it. */
interface PageState {
  name: string;
  reach(page: Page): Promise<void>;
}

/** The manager's case file with a document's rejection form open and its missing-reason message shown. */
const REJECTING_A_DOCUMENT: PageState = {
  name: 'case file: rejecting a document',
  async reach(page) {
    const item = page.getByTestId('case-file-document').first();
    // The rejection form's toggle is the second expandable button (after the preview's), whatever the language.
    await item.locator('button[aria-expanded]').nth(1).click();
    await item.locator('form button[type="submit"]').click();
    await item.getByRole('alert').waitFor();
  },
};

function routes(): { path: string; viewers: Viewer[]; state?: PageState }[] {
  return [
    // Public pages: signed out and as every role (the public layout shows the signed-in state).
    { path: '/', viewers: ['out', ...EVERYONE] },
    { path: '/home', viewers: ['out'] },
    { path: '/public/opportunities', viewers: ['out', ...EVERYONE] },
    { path: `/public/opportunity/${ids.opportunity}`, viewers: ['out', ...EVERYONE] },
    // No role needed, and the signed-out-only pages.
    ...[
      '/login',
      '/register',
      `/${ids.organization}/register`,
      '/housing-ambassador-register',
      '/forget-password',
      '/forget-username',
      '/forget-username/verify-otp?email=someone%40example.org',
      ids.resetPath,
      '/link-expired',
      '/terms-of-use',
      '/privacy-policy',
      '/verify-email',
      '/choose-otp-method',
      '/verify-otp',
      '/profile-matching',
      '/link-profile',
      '/link',
      '/lease-up-profile-matching',
      '/no-such-page',
    ].map((path) => ({ path, viewers: ['out'] as Viewer[] })),
    // Signed out it asks for sign-in first (tested in identity.test.ts); it is for those who act for a user.
    { path: `/request-impersonate-user?userId=${ids.userId}`, viewers: ['HousingAmbassador', 'Manager'] },
    { path: '/terms-of-use', viewers: ['User'] },
    { path: '/no-such-page', viewers: ['User'] },
    // Signed in.
    { path: '/dashboard', viewers: ['User', 'Tenant', 'Manager', 'Admin'] },
    { path: '/opportunities', viewers: RESIDENTS },
    { path: `/opportunity/${ids.opportunity}`, viewers: RESIDENTS },
    { path: '/my-favorites', viewers: RESIDENTS },
    { path: '/recertification', viewers: RESIDENTS },
    { path: '/training', viewers: RESIDENTS },
    // The how-to videos, no role needed (opened from the dashboard and training too).
    { path: '/play-video?video=recertification', viewers: ['out', 'Tenant'] },
    { path: '/myDocument', viewers: RESIDENTS },
    { path: '/profile', viewers: RESIDENTS },
    // The profile assistant, one question at a time.
    { path: '/profile/assistant', viewers: ['User'] },
    { path: '/myApplications', viewers: RESIDENTS },
    { path: `/myApplications/${ids.application}`, viewers: ['User', 'Manager'] },
    { path: `/myApplications/${ids.application}`, viewers: ['Manager'], state: REJECTING_A_DOCUMENT },
    { path: '/relocation', viewers: RESIDENTS },
    { path: '/profile-setting', viewers: EVERYONE },
    { path: '/help', viewers: EVERYONE },
    { path: '/manager/tasks', viewers: ['Manager'] },
    { path: '/manager/applications', viewers: ['Manager'] },
    { path: `/manager/recertification/${ids.recertification}`, viewers: ['Manager'] },
    { path: '/manager/relocations', viewers: ['Manager'] },
    { path: '/manager/recertifications', viewers: ['Manager'] },
    { path: `/manager/relocation/${ids.relocation}`, viewers: ['Manager'] },
    { path: '/manager/opportunities', viewers: ['Manager'] },
    { path: '/manager/opportunities/new', viewers: ['Manager'] },
    { path: `/manager/opportunities/${ids.opportunity}/edit`, viewers: ['Manager'] },
    { path: '/ambassador/dashboard', viewers: ['HousingAmbassador'] },
    // The operator console: Admins only.
    { path: '/operator', viewers: ['Admin'] },
    { path: `/operator/cases/lease-up/${ids.application}`, viewers: ['Admin'] },
    // The help page's questions and answers, managed by admins.
    { path: '/admin/faq', viewers: ['Admin'] },
  ];
}

interface Finding {
  count: number;
  detail: string[];
}
/** route label → language → serious and critical violations. */
const table = new Map<string, Map<string, Finding>>();

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  let userId = '';
  for (const role of ['User', 'Tenant', 'Manager', 'HousingAmbassador', 'Admin'] as const) {
    const session = await signIn(stack.app, role);
    tokens.set(role, { authorization: session.authorization });
    if (role === 'User') userId = ids.userId = session.userId;
  }
  const [user, tenant, manager] = [tokens.get('User')!, tokens.get('Tenant')!, tokens.get('Manager')!];
  const auth = (a: { authorization: string }) => ({ authorization: a.authorization });
  // A real reset link (the page checks its token and sends anything else to /link-expired).
  await stack.app.inject({ method: 'POST', url: '/api/Account/forget-password', payload: { email: demoAccount('User').email } });
  ids.resetPath = String((await latestMessage(stack.db, userId, 'reset-password'))!.params.path);
  const opportunity = await stack.db.selectFrom('opportunities').select(['id', 'organization_id']).where('published', '=', true).orderBy('id').executeTakeFirstOrThrow();
  ids.opportunity = opportunity.id;
  ids.organization = (await stack.db.selectFrom('organizations').select('slug').where('id', '=', opportunity.organization_id).executeTakeFirstOrThrow()).slug;
  const applied = await stack.app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: auth(user), payload: { opportunityId: ids.opportunity, householdSize: 2, householdIncome: 52_000, agreeToTerms: true } });
  if (applied.statusCode >= 300) throw new Error(`apply: ${applied.body}`);
  ids.application = applied.json().data.applicationId ?? applied.json().data.id;
  ids.recertification = await eventually(async () => (await stack.app.inject({ url: '/api/TenantRecertificationStatus/status', headers: auth(tenant) })).json().data?.caseId);
  const household = (await stack.app.inject({ url: '/api/Relocation/manager/households', headers: auth(manager) })).json().data[0].householdId;
  const started = await stack.app.inject({ method: 'POST', url: '/api/Relocation/manager/start', headers: auth(manager), payload: { householdId: household, reason: 'Boiler replacement' } });
  if (started.statusCode !== 201) throw new Error(`relocation: ${started.body}`);
  ids.relocation = started.json().data.relocationId;
  // Wait until each case is readable, so the pages show the case rather than a loading state.
  await eventually(async () => (await stack.app.inject({ url: '/api/Relocation', headers: auth(tenant) })).json().data.relocation?.status);
  await eventually(async () => (await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${ids.application}`, headers: auth(user) })).statusCode === 200);
}, 180_000);

afterAll(async () => {
  const languages = [...LANGUAGES];
  const width = Math.max(...[...table.keys()].map((k) => k.length));
  const lines = [`${'route (viewer)'.padEnd(width)}  ${languages.map((l) => l.padStart(3)).join('  ')}`];
  for (const [route, byLanguage] of table) lines.push(`${route.padEnd(width)}  ${languages.map((l) => String(byLanguage.get(l)?.count ?? '-').padStart(3)).join('  ')}`);
  const total = [...table.values()].flatMap((m) => [...m.values()]).reduce((sum, f) => sum + f.count, 0);
  console.log(`axe serious + critical violations, routes × languages (${table.size} routes, total ${total}):\n${lines.join('\n')}`);
  await browser?.close();
  await stack?.close();
});

async function audit(page: Page): Promise<Finding> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return { count: violations.reduce((sum, v) => sum + v.targets.length, 0), detail: violations.map((v) => `${v.impact} ${v.id}: ${v.targets.slice(0, 3).join(' ')}`) };
}

const VIEWERS: Viewer[] = ['out', 'User', 'Tenant', 'Manager', 'HousingAmbassador', 'Admin'];
const PHONE = { width: 375, height: 740 };

/**
 * Axe runs at desktop size in English and Chinese and at phone size in Spanish and Bengali: every
 * route is audited at both sizes, and a walk costs one audit a page.
 */
const AUDITED_ON_A_PHONE = new Set(['es', 'bn']);

/** `look` on a phone-sized screen, the page's own size given back after. */
async function onPhone<T>(page: Page, look: () => Promise<T>): Promise<T> {
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    return await look();
  } finally {
    if (desktop) await page.setViewportSize(desktop);
  }
}

/** On a phone-sized screen: how far the page scrolls sideways, and where its first heading starts. */
async function phoneLayout(page: Page): Promise<string[]> {
  return onPhone(page, async () => {
    const { overflow, heading, wide } = await page.evaluate(() => {
      const h1 = document.querySelector('h1');
      // The innermost elements that end past the screen's edge name what to fix.
      // An element clipped by a box that scrolls on its own does not widen the page.
      const clipped = (e: Element) => {
        for (let box = e.parentElement; box; box = box.parentElement) if (getComputedStyle(box).overflowX !== 'visible') return true;
        return false;
      };
      const past = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !clipped(e));
      const innermost = past.filter((e) => !past.some((other) => other !== e && e.contains(other)));
      const name = (e: Element) => `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}"`;
      return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        heading: h1 ? Math.round(h1.getBoundingClientRect().top + window.scrollY) : null,
        wide: innermost.slice(0, 3).map(name),
      };
    });
    const problems: string[] = [];
    if (overflow > 0) problems.push(`scrolls ${overflow} px sideways at ${PHONE.width} px (${wide.join('; ')})`);
    if (heading === null) problems.push('has no h1');
    else if (heading > PHONE.height / 3) problems.push(`first heading ${heading} px down, below the top third of ${PHONE.height} px`);
    return problems;
  });
}

describe('axe on every route in four languages', () => {
  it('the audit finds a violation when there is one (an image without text, a button without a name)', async () => {
    const { context, page } = await openContext(browser, stack.baseUrl, { label: 'a11y-self-check', bypassCSP: true });
    await page.goto('/terms-of-use');
    await settled(page);
    await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<img src="/favicon.ico"><button></button>'));
    const finding = await audit(page);
    await context.close();
    expect(finding.detail.join('\n')).toMatch(/critical (image-alt|button-name)/);
    expect(finding.count).toBeGreaterThanOrEqual(2);
  });

  for (const language of LANGUAGES) {
    it(`on a phone in ${language}: the menu opens and closes by keyboard, and its links are axe clean`, async () => {
      const storage = await storageFor(stack.app, 'Tenant');
      const { context, page } = await openContext(browser, stack.baseUrl, { language, storage, label: `phone-menu-${language}`, bypassCSP: true });
      const isFocused = (locator: ReturnType<Page['locator']>) => locator.evaluate((element) => element === document.activeElement);
      /** Tab from where the focus is until `locator` has it, failing with what it waited for. */
      async function tabTo(locator: ReturnType<Page['locator']>, what: string, most: number) {
        for (let presses = 0; presses < most && !(await isFocused(locator)); presses++) await page.keyboard.press('Tab');
        expect(await isFocused(locator), `Tab reaches ${what} within ${most} presses`).toBe(true);
      }
      try {
        await page.setViewportSize(PHONE);
        await page.goto('/dashboard');
        await settled(page);
        const toggle = page.locator('button[aria-controls~="main-nav"]');
        const nav = page.locator('#main-nav');
        expect(await nav.isVisible()).toBe(false);
        await tabTo(toggle, 'the Menu button', 10);
        await page.keyboard.press('Enter');
        await nav.waitFor({ state: 'visible' });
        expect(await toggle.getAttribute('aria-expanded')).toBe('true');
        expect((await audit(page)).detail).toEqual([]);
        // Escape closes it and gives the focus back to its button.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Escape');
        await nav.waitFor({ state: 'hidden' });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        expect(await isFocused(toggle)).toBe(true);
        // A link followed from the menu opens its page with the menu closed.
        await page.keyboard.press('Enter');
        await nav.waitFor({ state: 'visible' });
        await tabTo(nav.locator('a[href="/recertification"]'), 'the Recertification link', 30);
        await page.keyboard.press('Enter');
        await expect.poll(() => new URL(page.url()).pathname).toBe('/recertification');
        await nav.waitFor({ state: 'hidden' });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  for (const viewer of VIEWERS) {
    for (const language of LANGUAGES) {
      it(`${viewer === 'out' ? 'signed out' : viewer} in ${language}: no serious or critical violation`, async () => {
        // A signed-in user's saved language wins over the browser's: save the one under test.
        // The session is signed in here, not in beforeAll: on a slow machine the suite outlasts an access token.
        const storage = viewer === 'out' ? undefined : await storageFor(stack.app, viewer);
        if (storage) {
          const authorization = `Bearer ${(JSON.parse(storage.auth) as { accessToken: string }).accessToken}`;
          const saved = await stack.app.inject({ method: 'PUT', url: '/api/UserProfile/settings', headers: { authorization }, payload: { preferredReadingLanguage: language } });
          expect(saved.statusCode).toBe(200);
        }
        const { context, page } = await openContext(browser, stack.baseUrl, { language, storage, label: `a11y-${viewer}-${language}`, bypassCSP: true });
        // Signed out, the visitor is between password and code, as after an MFA login: the
        // choose-otp-method and verify-otp pages show their forms rather than going back to /login.
        if (viewer === 'out') await context.addInitScript((id) => localStorage.setItem('pendingUserId', id), ids.userId);
        const failures: string[] = [];
        const errors = watchConsoleErrors(page);
        try {
          for (const route of routes().filter((r) => r.viewers.includes(viewer))) {
            await page.goto(route.path);
            await settled(page);
            if (route.state) await route.state.reach(page);
            const pattern = (route.path.split('?')[0] ?? route.path).replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}').replace(`/${ids.organization}/`, '/{organization}/');
            const label = `${pattern}${route.state ? ` [${route.state.name}]` : ''} (${viewer === 'out' ? 'signed out' : viewer})`;
            // A page that sent the visitor elsewhere would be audited under the wrong name.
            expect(new URL(page.url()).pathname, label).toBe(route.path.split('?')[0]);
            expect(await page.evaluate(() => document.documentElement.lang), label).toBe(language);
            const finding = AUDITED_ON_A_PHONE.has(language) ? await onPhone(page, () => audit(page)) : await audit(page);
            if (!table.has(label)) table.set(label, new Map());
            table.get(label)!.set(language, finding);
            if (finding.count) failures.push(`${label} [${language}]\n  ${finding.detail.join('\n  ')}`);
            for (const problem of await phoneLayout(page)) failures.push(`${label} [${language}] on a phone: ${problem}`);
            for (const error of errors.splice(0)) failures.push(`${label} [${language}] console: ${error}`);
          }
        } finally {
          await context.close();
        }
        expect(failures, failures.join('\n')).toEqual([]);
      }, 240_000);
    }
  }
});
