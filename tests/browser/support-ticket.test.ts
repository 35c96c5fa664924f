/**
 * Support tickets in the browser, two browser contexts on the real stack: an applicant
 * contacts support from an application; the manager of its organisation sees the ticket with the
 * case beside it and answers; the applicant reads the answer, and the email telling them is
 * written (the delivery loop writes .eml files to a folder, as on the embedded default).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MailDirTransport, startDeliveryLoop } from '../../infra/notifications';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor } from '../helpers/browser';
import { demoAccount, eventually, signIn, startStack, type Stack } from '../helpers/stack';

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

async function open(role: 'User' | 'Manager' | 'Tenant', label: string, language?: string): Promise<Page> {
  const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, role), label: `support-${label}`, bypassCSP: true, ...(language ? { language } : {}) });
  contexts.push(context);
  return page;
}

/** The applicant's application to the first published opportunity that takes it (applied through the API). */
async function applied(): Promise<string> {
  const applicant = await signIn(stack.app, 'User');
  const published = (await stack.app.inject({ url: '/api/Opportunity/published-opportunities', headers: applicant })).json().data as { id: string }[];
  for (const o of published) {
    const res = await stack.app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: applicant, payload: { opportunityId: o.id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true } });
    if (res.statusCode === 201) return res.json().data.applicationId as string;
  }
  throw new Error('no demo opportunity took the application');
}

describe('support tickets in the browser', () => {
  it('an applicant contacts support from an application; the manager sees it with the case and answers; the applicant reads the answer and is emailed', async () => {
    const applicationId = await applied();
    const applicant = await open('User', 'applicant');
    await applicant.goto(`/myApplications/${applicationId}`);
    await settled(applicant);
    await applicant.getByRole('link', { name: 'Contact support' }).click();
    await applicant.waitForURL(/\/support-ticket\?caseKind=lease_up&caseId=/);
    await applicant.getByText('This ticket will be about your application').waitFor();
    expect(await applicant.getByLabel('What is it about?').inputValue()).toBe('application');
    // Sending with nothing written says what is missing, and sends nothing.
    await applicant.getByRole('button', { name: 'Send' }).click();
    await applicant.getByText('Please give a subject').waitFor();
    expect(await seriousAxeViolations(applicant)).toEqual([]);
    // By keyboard: type the subject and the question, then Tab past the (optional) attach control to Send and press Enter.
    await applicant.getByLabel('Subject').fill('When is my appointment?');
    await applicant.getByLabel('Your question').fill('I have not received an appointment date yet. Can you help?');
    await applicant.getByLabel('Your question').press('Tab');
    expect(await applicant.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('file');
    await applicant.keyboard.press('Tab');
    await applicant.keyboard.press('Enter');
    await applicant.waitForURL(/\/support-ticket\/[0-9a-f-]{36}$/);
    const ticketId = applicant.url().split('/').at(-1)!;
    await applicant.getByTestId('ticket-status').getByText('Waiting for the office').waitFor();
    expect(await seriousAxeViolations(applicant)).toEqual([]);

    // The manager's queue shows it; the ticket page shows the application beside it.
    const manager = await open('Manager', 'manager');
    await manager.goto('/manager/support-tickets');
    await settled(manager);
    expect(await seriousAxeViolations(manager)).toEqual([]);
    await manager.getByRole('link', { name: 'When is my appointment?' }).click();
    await manager.waitForURL(`**/manager/support-ticket/${ticketId}`);
    const casePanel = manager.getByRole('region', { name: 'The application this ticket is about' });
    await casePanel.waitFor();
    const logNumber = (await stack.db.selectFrom('applications').select('log_number').where('id', '=', applicationId).executeTakeFirstOrThrow()).log_number!;
    await casePanel.getByText(logNumber).waitFor();
    expect(await seriousAxeViolations(manager)).toEqual([]);
    await manager.getByLabel('Your answer').fill('Your appointment slots will be offered after documentation review, within 5 business days.');
    await manager.getByRole('button', { name: 'Send' }).click();
    await manager.getByTestId('ticket-status').getByText('Answered').waitFor();

    // The applicant reads the answer on the ticket and sees the ticket on the application.
    await applicant.reload();
    await applicant.getByText('Your appointment slots will be offered after documentation review').waitFor();
    await applicant.getByTestId('ticket-status').getByText('Answered').waitFor();
    await applicant.goto(`/myApplications/${applicationId}`);
    await applicant.getByRole('region', { name: 'Need help with this?' }).getByRole('link', { name: 'When is my appointment?' }).waitFor();

    // The email about the answer is written, with the ticket's link and none of the text.
    const to = demoAccount('User').email;
    const eml = await eventually(async () => {
      for (const file of (await readdir(mailDir)).filter((f) => f.endsWith(`${to}.eml`))) {
        const text = (await readFile(join(mailDir, file), 'utf8')).replace(/=\r?\n/g, '');
        if (text.includes('New answer on your support ticket')) return text;
      }
      return undefined;
    });
    expect(eml).toContain(ticketId.slice(0, 8).toUpperCase());
    expect(eml).not.toContain('documentation review');
  });

  it('a tenant writes to the office in Spanish; the open manager page shows it and the unread count without reload; the answer reaches the tenant and the count clears', async () => {
    // The tenant reads the portal in Spanish (their profile's language, which the signed-in app applies).
    await stack.db.updateTable('users').set({ preferred_language: 'es' }).where('username', '=', demoAccount('Tenant').username).execute();
    const tenant = await open('Tenant', 'tenant-chat', 'es');
    const manager = await open('Manager', 'manager-chat');
    // Live delivery: each page streams GET /api/Chat/events with its token in a header, never in the URL.
    const streams: { url: string; authorization: string | undefined }[] = [];
    for (const page of [tenant, manager]) page.on('request', (r) => void (r.url().includes('/api/Chat/events') && streams.push({ url: r.url(), authorization: r.headers().authorization })));
    const managerLive = manager.waitForResponse((r) => r.url().endsWith('/api/Chat/events') && r.status() === 200);
    await manager.goto('/dashboard');
    await settled(manager);
    await manager.getByTestId('unseen-count').getByText('0').waitFor();
    await managerLive;
    const tenantLive = tenant.waitForResponse((r) => r.url().endsWith('/api/Chat/events') && r.status() === 200);
    await tenant.goto('/dashboard');
    await settled(tenant);
    await tenantLive;
    await tenant.getByRole('button', { name: /^Mensajes/ }).click();
    const window = tenant.getByRole('region', { name: 'Mensajes con la oficina administradora' });
    await window.getByLabel('Su mensaje').fill('Hola, la calefacción no funciona en el 4B.');
    await window.getByRole('button', { name: 'Enviar mensaje' }).click();
    await window.getByText('Hola, la calefacción no funciona en el 4B.').waitFor();
    expect(await seriousAxeViolations(tenant)).toEqual([]);

    // The manager's page, never reloaded, shows the unread count, then the message in the window.
    await manager.getByTestId('unseen-count').getByText('1').waitFor();
    await manager.getByRole('button', { name: /^Messages/ }).click();
    const inbox = manager.getByRole('region', { name: 'Messages with the managing office' });
    await inbox.getByRole('button', { name: /Luis Ortega/ }).click();
    await inbox.getByText('Hola, la calefacción no funciona en el 4B.').waitFor();
    await manager.getByTestId('unseen-count').getByText('0').waitFor();
    expect(await seriousAxeViolations(manager)).toEqual([]);
    await inbox.getByLabel('Your message').fill('Un técnico irá mañana a las 10.');
    await inbox.getByRole('button', { name: 'Send message' }).click();

    // The tenant's open window shows the answer without reload; reading it clears the count.
    await window.getByText('Un técnico irá mañana a las 10.').waitFor();
    await tenant.getByTestId('unseen-count').getByText('0').waitFor();
    expect(streams.length).toBeGreaterThanOrEqual(2);
    for (const stream of streams) {
      expect(new URL(stream.url).search).toBe('');
      expect(stream.authorization).toMatch(/^Bearer /);
    }
  });
});
