/**
 * Listing alerts in Chromium, signed out, in two languages: a visitor finds "Get alerts" on the
 * public listings, subscribes with an e-mail address, confirms on the page the e-mail's link opens
 * (opening it changes nothing; its button does); a manager publishes one listing that fits and one
 * that does not; exactly one notice reaches the visitor's mailbox, with one-click unsubscribe
 * headers that work without signing in. Every page passes axe and fits 375 px.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { deliverPending, type EmailMessage } from '../../infra/notifications';
import { seriousAxeViolations } from '../helpers/axe';
import { closeContext, launchChromium, openContext, settled } from '../helpers/browser';
import { rentalInput } from '../helpers/lease-up-users';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

const LOCALES = fileURLToPath(new URL('../../web/src/i18n/locales/', import.meta.url));
type Tree = { [k: string]: string | Tree };
const text = (language: string, namespace: string, key: string) =>
  key.split('.').reduce<string | Tree>((node, part) => (node as Tree)[part] as string | Tree, JSON.parse(readFileSync(`${LOCALES}${language}/${namespace}.json`, 'utf8')) as Tree) as string;

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function checkPage(page: Page, where: string): Promise<void> {
  await settled(page);
  expect(await seriousAxeViolations(page), `${where}: axe`).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${where}: fits 375 px`).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('listing alerts, signed out', () => {
  for (const language of ['es', 'bn']) {
    it(`a visitor subscribes, confirms and hears of the one listing that fits, in ${language}`, async () => {
      const t = (key: string) => text(language, 'alerts', key);
      const email = `alerts-${language}@example.org`;
      const { context, page } = await openContext(browser, stack.baseUrl, { language, label: `alerts-${language}`, bypassCSP: true });
      try {
        await page.goto('/public/opportunities');
        await page.getByRole('link', { name: text(language, 'opportunities', 'list.alertsLink') }).click();
        await page.getByRole('heading', { level: 1, name: t('public.title') }).waitFor();
        await checkPage(page, 'get alerts');
        await page.getByRole('textbox', { name: t('public.email') }).fill(email);
        await page.getByRole('checkbox', { name: t('size.studio'), exact: true }).check();
        await page.getByRole('checkbox', { name: t('area.bronx'), exact: true }).check();
        await page.getByRole('button', { name: t('public.submit') }).click();
        await page.getByText(t('public.sentEmail')).waitFor();

        const confirm = await eventually(() => stack.db.selectFrom('notification_outbox').selectAll().where('to_address', '=', email).where('template', '=', 'listing-alert-confirm').executeTakeFirst());
        expect(confirm.language).toBe(language);
        const alert = await stack.db.selectFrom('listing_alerts').select(['id', 'status']).where('contact_hash', 'is not', null).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
        // Opening the link (as a mail scanner would) confirms nothing.
        await page.goto(String(confirm.params.path));
        await page.getByRole('heading', { level: 1, name: t('confirm.title') }).waitFor();
        await checkPage(page, 'confirm');
        expect((await stack.db.selectFrom('listing_alerts').select('status').where('id', '=', alert.id).executeTakeFirstOrThrow()).status).toBe('pending_confirmation');
        await page.getByRole('button', { name: t('confirm.button') }).click();
        await page.getByText(t('confirm.done')).waitFor();
        expect((await stack.db.selectFrom('listing_alerts').select('status').where('id', '=', alert.id).executeTakeFirstOrThrow()).status).toBe('active');

        // A manager publishes a studio in the Bronx and a two-bedroom in Queens.
        const manager = await signIn(stack.app, 'Manager');
        const ids: string[] = [];
        for (const input of [
          { ...rentalInput(`Fits ${language}`, 20), area: 'bronx' },
          { ...rentalInput(`Does not fit ${language}`, 20), area: 'queens', units: [{ unitNumber: '2B', bedroomType: '2 bedrooms', monthlyRent: 1900, amiPercent: 60 }] },
        ]) {
          const created = await stack.app.inject({ method: 'POST', url: '/api/Opportunity/manage', headers: { authorization: manager.authorization }, payload: input });
          ids.push(created.json().data.id);
          expect((await stack.app.inject({ method: 'POST', url: `/api/Opportunity/manage/${ids.at(-1)}/publish`, headers: { authorization: manager.authorization } })).statusCode).toBe(200);
        }
        for (const id of ids) await eventually(async () => (await stack.temporal.workflow.getHandle(`listing-alerts/${id}`).describe()).status.name === 'COMPLETED');

        // The mailbox: every pending message handed to a sink; exactly one reaches the visitor.
        const sink: EmailMessage[] = [];
        await deliverPending({ db: stack.db, transports: { email: { send: async (m) => void sink.push(m) }, sms: { send: async () => undefined } }, context: { baseUrl: stack.baseUrl } }, 500);
        const mine = sink.filter((m) => m.to === email && m.headers?.['List-Unsubscribe']);
        expect(mine).toHaveLength(1);
        expect(mine[0]!.text).toContain(`Fits ${language}`);
        expect(mine[0]!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

        // One-click unsubscribe from the header's URL, as a mail client does it: no sign-in.
        const url = /^<(.+)>$/.exec(mine[0]!.headers!['List-Unsubscribe']!)![1]!;
        const oneClick = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
        expect(oneClick.status).toBe(200);
        expect(await stack.db.selectFrom('listing_alerts').select('id').where('id', '=', alert.id).executeTakeFirst()).toBeUndefined();

        // The unsubscribe page of the e-mail's own link: a page with a button, and the token spent now.
        const pageLink = /https?:\/\/\S+\/alerts\/unsubscribe\?token=\S+/.exec(mine[0]!.text)![0];
        await page.goto(pageLink);
        await page.getByRole('heading', { level: 1, name: t('unsubscribe.title') }).waitFor();
        await checkPage(page, 'unsubscribe');
        await page.getByRole('button', { name: t('unsubscribe.button') }).click();
        await page.locator('.form-error').waitFor();
      } finally {
        await closeContext(context, `alerts-${language}`);
      }
    }, 120_000);
  }
});
