/**
 * In the browser, the pieces added last: files attached to a ticket (new ticket and reply,
 * downloaded by the other side), ticket pages that follow each other live (GET
 * /api/SupportTicket/events, no reload), the chat window's attach button by keyboard with its
 * errors and notice in the reader's language, and the admin screen of the help answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, FileChooser, Page } from 'playwright-core';
import { dataCipher } from '../../infra/data-keys';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor } from '../helpers/browser';
import { tinyPdf } from '../helpers/household';
import { demoAccount, signIn, startStack, type Stack } from '../helpers/stack';

let browser: Browser;
let stack: Stack;
const contexts: BrowserContext[] = [];
/** Live updates must beat the 15 s poll that runs only while the stream is down. */
const LIVE = { timeout: 10_000 };

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  // The tenant reads the portal in Spanish (their profile's language, which the signed-in app applies).
  await stack.db.updateTable('users').set({ preferred_language: 'es' }).where('username', '=', demoAccount('Tenant').username).execute();
});
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

async function open(role: 'Tenant' | 'Manager' | 'Admin', label: string, language?: string): Promise<Page> {
  const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, role), label: `support-live-${label}`, bypassCSP: true, ...(language ? { language } : {}) });
  contexts.push(context);
  return page;
}
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: tinyPdf() });

describe('support tickets and messages: attachments, live pages, the admin FAQ', () => {
  it('a tenant in Spanish opens a ticket with a file; the manager\'s open queue and ticket show it and the reply with its file live; the answer reaches the tenant live', async () => {
    // The manager's queue is open before the ticket exists: it shows up there without reload.
    const manager = await open('Manager', 'manager');
    const queueLive = manager.waitForResponse((r) => r.url().endsWith('/api/SupportTicket/events') && r.status() === 200);
    await manager.goto('/manager/support-tickets');
    await settled(manager);
    await queueLive;

    const tenant = await open('Tenant', 'tenant', 'es');
    const streams: { url: string; authorization: string | undefined }[] = [];
    tenant.on('request', (r) => void (r.url().includes('/api/SupportTicket/events') && streams.push({ url: r.url(), authorization: r.headers().authorization })));
    await tenant.goto('/support-ticket');
    await settled(tenant);
    await tenant.getByLabel('¿De qué se trata?').selectOption('documents');
    await tenant.getByLabel('Asunto').fill('Mi recibo de sueldo');
    await tenant.getByLabel('Su pregunta').fill('Adjunto el recibo que la página no acepta.');
    // A file the portal does not take is refused before sending, in Spanish.
    const attach = tenant.getByLabel('Adjuntar archivos (opcional)');
    await attach.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
    await tenant.getByRole('alert').getByText('No se acepta este tipo de archivo.', { exact: false }).waitFor();
    await attach.setInputFiles([pdf('recibo.pdf'), pdf('carta.pdf')]);
    const chosen = tenant.getByRole('list', { name: 'Archivos para enviar' });
    await chosen.getByText('carta.pdf').waitFor();
    // Removing one by keyboard.
    await chosen.getByRole('button', { name: 'Quitar carta.pdf' }).focus();
    await tenant.keyboard.press('Enter');
    await expect.poll(() => chosen.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('recibo.pdf')]);
    expect(await seriousAxeViolations(tenant)).toEqual([]);
    await tenant.getByRole('button', { name: 'Enviar', exact: true }).click();
    await tenant.waitForURL(/\/support-ticket\/[0-9a-f-]{36}$/);
    const ticketId = tenant.url().split('/').at(-1)!;
    await tenant.getByRole('button', { name: 'Descargar recibo.pdf' }).waitFor();
    const rows = await stack.db.selectFrom('support_ticket_attachments').select(['file_name', 'message_seq']).where('ticket_id', '=', ticketId).execute();
    expect(rows).toEqual([{ file_name: 'recibo.pdf', message_seq: 1 }]);
    expect(await seriousAxeViolations(tenant)).toEqual([]);

    // The manager's ticket page is open; the tenant's reply with a file appears there without reload.
    const managerLive = manager.waitForResponse((r) => r.url().endsWith('/api/SupportTicket/events') && r.status() === 200);
    await manager.getByRole('link', { name: 'Mi recibo de sueldo' }).click(LIVE);
    await manager.waitForURL(`**/manager/support-ticket/${ticketId}`);
    await manager.getByRole('button', { name: 'Download recibo.pdf' }).waitFor();
    await managerLive;
    await tenant.getByLabel('Su respuesta').fill('También el formulario firmado.');
    await tenant.getByLabel('Adjuntar archivos (opcional)').setInputFiles([pdf('formulario.pdf')]);
    await tenant.getByRole('button', { name: 'Enviar', exact: true }).click();
    await manager.getByText('También el formulario firmado.').waitFor(LIVE);
    await manager.getByRole('button', { name: 'Download formulario.pdf' }).waitFor(LIVE);
    // The manager downloads it (fetched with the token in a header; saved under its name).
    const download = manager.waitForEvent('download');
    await manager.getByRole('button', { name: 'Download formulario.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('formulario.pdf');
    expect(await seriousAxeViolations(manager)).toEqual([]);

    // The manager answers; the tenant's open page shows it without reload.
    await manager.getByLabel('Your answer').fill('Recibido, lo revisamos hoy.');
    await manager.getByRole('button', { name: 'Send', exact: true }).click();
    await tenant.getByText('Recibido, lo revisamos hoy.').waitFor(LIVE);
    await tenant.getByTestId('ticket-status').getByText('Respondida').waitFor(LIVE);
    expect(streams.length).toBeGreaterThanOrEqual(1);
    for (const stream of streams) {
      expect(new URL(stream.url).search).toBe('');
      expect(stream.authorization).toMatch(/^Bearer /);
    }
  });

  it('the chat window sends a document by keyboard, says what is refused in Spanish, and shows the notice in each reader\'s language', async () => {
    const tenantAuth = await signIn(stack.app, 'Tenant');
    const household = await stack.db.selectFrom('households').select(['id', 'organization_id']).where('head_user_id', '=', tenantAuth.userId).executeTakeFirstOrThrow();
    // A notice stored before messages had a kind (English text) still reads in the reader's language.
    await stack.db.insertInto('chat_conversations').values({ household_id: household.id, organization_id: household.organization_id!, last_message_at: new Date(Date.now() - 60_000) }).onConflict((oc) => oc.doNothing()).execute();
    await stack.db
      .insertInto('chat_messages')
      .values({ household_id: household.id, organization_id: household.organization_id!, sender_user_id: tenantAuth.userId, sender_side: 'household', body_encrypted: dataCipher().encrypt('Shared a document: viejo.pdf'), created_at: new Date(Date.now() - 60_000) })
      .execute();

    const tenant = await open('Tenant', 'tenant-chat', 'es');
    // Listening from the start: the browser intercepts file choosers only once a listener is set.
    const choosers: FileChooser[] = [];
    tenant.on('filechooser', (c) => void choosers.push(c));
    const nextChooser = async () => {
      await expect.poll(() => choosers.length, { timeout: 10_000 }).toBeGreaterThan(0);
      return choosers.shift()!;
    };
    await tenant.goto('/dashboard');
    await settled(tenant);
    await tenant.getByRole('button', { name: /^Mensajes/ }).click();
    const window = tenant.getByRole('region', { name: 'Mensajes con la oficina administradora' });
    await window.getByText('Compartió un documento: viejo.pdf').waitFor();

    // Keyboard: Tab from the message box past Send to the attach button, Enter opens the file chooser.
    await window.getByLabel('Su mensaje').focus();
    await tenant.keyboard.press('Tab');
    await tenant.keyboard.press('Tab');
    expect(await tenant.evaluate(() => document.activeElement?.textContent)).toBe('Enviar un documento');
    await tenant.keyboard.press('Enter');
    // Content that is not a PDF: the server refuses it; the reason is shown in Spanish.
    await (await nextChooser()).setFiles({ name: 'falso.pdf', mimeType: 'application/pdf', buffer: Buffer.from('solo texto') });
    await window.getByRole('alert').getByText('No se acepta este tipo de archivo.', { exact: false }).waitFor();
    const attachButton = window.getByRole('button', { name: 'Enviar un documento' });
    await expect.poll(() => attachButton.isEnabled()).toBe(true);
    await attachButton.press('Enter');
    await (await nextChooser()).setFiles(pdf('contrato.pdf'));
    await window.getByText('Compartió un documento: contrato.pdf').waitFor();
    expect(await seriousAxeViolations(tenant)).toEqual([]);
    const stored = await stack.db.selectFrom('chat_messages').select(['kind', 'body_encrypted']).where('household_id', '=', household.id).where('kind', '=', 'documents_shared').execute();
    expect(stored.map((m) => dataCipher().decrypt(m.body_encrypted!))).toEqual(['contrato.pdf']);
    expect(await stack.db.selectFrom('household_documents').select('id').where('household_id', '=', household.id).where('file_name', '=', 'contrato.pdf').execute()).toHaveLength(1);

    // The manager reads it in English.
    const manager = await open('Manager', 'manager-chat');
    await manager.goto('/dashboard');
    await settled(manager);
    await manager.getByRole('button', { name: /^Messages/ }).click();
    const inbox = manager.getByRole('region', { name: 'Messages with the managing office' });
    await inbox.getByRole('button', { name: /Luis Ortega/ }).click();
    await inbox.getByText('Shared a document: contrato.pdf').waitFor();
    await inbox.getByText('Shared a document: viejo.pdf').waitFor();
    // Staff have no attach button (documents go to the household's own My Documents).
    expect(await inbox.getByRole('button', { name: 'Send a document' }).count()).toBe(0);
  });

  it('an admin adds, edits and deletes help answers in four languages from the admin menu, by keyboard', async () => {
    const admin = await open('Admin', 'admin');
    await admin.goto('/dashboard');
    await settled(admin);
    await admin.getByRole('link', { name: 'Help answers', exact: true }).click();
    await expect.poll(() => new URL(admin.url()).pathname).toBe('/admin/faq');
    await admin.getByRole('heading', { level: 2 }).first().waitFor();
    expect(await seriousAxeViolations(admin)).toEqual([]);

    // A new category: sending it empty says what is missing, in each language's field.
    await admin.getByRole('button', { name: 'Add a category' }).press('Enter');
    const dialog = admin.getByRole('dialog', { name: 'Add a category' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.getByText('Please write the text in this language').count()).toBe(4);
    await dialog.getByText('Use lower-case letters, digits and dashes').waitFor();
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await dialog.getByLabel('Short name').fill('mail-and-notices');
    await dialog.getByLabel('Name (English)').fill('Mail and notices');
    await dialog.getByLabel('Name (Español)').fill('Correo y avisos');
    await dialog.getByLabel('Name (中文（简体）)').fill('邮件和通知');
    await dialog.getByLabel('Name (বাংলা)').fill('চিঠি ও নোটিশ');
    await dialog.getByLabel('Name (বাংলা)').press('Enter');
    await admin.getByRole('heading', { name: 'Mail and notices', level: 2 }).waitFor();
    const category = await stack.db.selectFrom('faq_categories').select(['id', 'name']).where('slug', '=', 'mail-and-notices').executeTakeFirstOrThrow();
    expect(category.name).toEqual({ en: 'Mail and notices', es: 'Correo y avisos', zh: '邮件和通知', bn: 'চিঠি ও নোটিশ' });

    // A question in it, by keyboard.
    await admin.getByRole('button', { name: 'Add a question to Mail and notices' }).press('Enter');
    const q = admin.getByRole('dialog', { name: 'Add a question' });
    const texts = {
      Question: { English: 'Where do notices go?', Español: '¿Adónde llegan los avisos?', '中文（简体）': '通知发送到哪里？', বাংলা: 'নোটিশ কোথায় যায়?' },
      Answer: { English: 'To your email and your dashboard.', Español: 'A su correo y a su panel.', '中文（简体）': '发送到您的电子邮件和主页。', বাংলা: 'আপনার ইমেইল ও ড্যাশবোর্ডে।' },
    };
    for (const [field, byLanguage] of Object.entries(texts)) for (const [language, text] of Object.entries(byLanguage)) await q.getByLabel(`${field} (${language})`).fill(text);
    await q.getByRole('button', { name: 'Save' }).press('Enter');
    const list = admin.getByRole('list', { name: 'Questions in Mail and notices' });
    await list.getByText('Where do notices go?').waitFor();
    expect(await seriousAxeViolations(admin)).toEqual([]);

    // Edit it; the public FAQ shows the change.
    await list.getByRole('button', { name: 'Edit the question: Where do notices go?' }).click();
    const edit = admin.getByRole('dialog', { name: 'Edit question' });
    await edit.getByLabel('Question (English)').fill('Where do my notices go?');
    await edit.getByRole('button', { name: 'Save' }).click();
    await list.getByText('Where do my notices go?').waitFor();
    const faq = (await stack.app.inject({ url: '/api/FaqCategory' })).json().data as { slug: string; questions: { question: Record<string, string> }[] }[];
    expect(faq.find((c) => c.slug === 'mail-and-notices')!.questions.map((x) => x.question)).toEqual([{ en: 'Where do my notices go?', es: '¿Adónde llegan los avisos?', zh: '通知发送到哪里？', bn: 'নোটিশ কোথায় যায়?' }]);

    // Delete the question, then the category, each after confirming; Escape cancels.
    await list.getByRole('button', { name: 'Delete the question: Where do my notices go?' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Delete for good?' });
    await confirm.waitFor();
    await admin.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await stack.db.selectFrom('faq_questions').select('id').where('category_id', '=', category.id).execute()).toHaveLength(1);
    await list.getByRole('button', { name: 'Delete the question: Where do my notices go?' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No questions in this category yet.').waitFor();
    await admin.getByRole('button', { name: 'Delete category: Mail and notices' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('heading', { name: 'Mail and notices' }).waitFor({ state: 'detached' });
    expect(await stack.db.selectFrom('faq_categories').select('id').where('slug', '=', 'mail-and-notices').execute()).toEqual([]);
  });
});
