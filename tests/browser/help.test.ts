/**
 * The FAQ in the browser: a resident reading Spanish finds the help page in the
 * menu, searches it, reads an answer with the keyboard; and the new-ticket form offers answers to
 * what they are writing before the ticket is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor } from '../helpers/browser';
import { signIn, startStack, type Stack } from '../helpers/stack';

let browser: Browser;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('help page and answers offered before a ticket', () => {
  it('a resident in Spanish searches the help, opens an answer by keyboard, and is offered answers while writing a ticket', async () => {
    const tenant = await signIn(stack.app, 'Tenant');
    expect((await stack.app.inject({ method: 'PUT', url: '/api/UserProfile/settings', headers: { authorization: tenant.authorization }, payload: { preferredReadingLanguage: 'es' } })).statusCode).toBe(200);
    const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, 'Tenant'), language: 'es', label: 'help-es', bypassCSP: true });
    try {
      await page.goto('/dashboard');
      await page.getByRole('link', { name: 'Ayuda', exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/help');
      await page.getByRole('heading', { name: 'Apelaciones' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);

      await page.getByRole('searchbox', { name: 'Buscar en las respuestas' }).fill('reubicación');
      await expect.poll(() => page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(['Reubicación temporal']);
      const question = page.locator('summary', { hasText: '¿Cómo funciona una reubicación temporal?' });
      await question.focus();
      await page.keyboard.press('Enter');
      await page.getByText(/dura hasta 6 meses/).waitFor();

      await page.getByRole('searchbox', { name: 'Buscar en las respuestas' }).fill('zzqx');
      await page.getByText('Ninguna respuesta coincide con su búsqueda.', { exact: false }).waitFor();

      await page.goto('/support-ticket');
      await settled(page);
      await page.getByLabel('Asunto').fill('Se me pasó el plazo de recertificación');
      await page.getByRole('heading', { name: 'Estas respuestas pueden ayudarle' }).waitFor();
      await page.getByText('Se me pasó el plazo de recertificación. ¿Y ahora?').click();
      await page.getByText(/el administrador todavía puede completar su recertificación/).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Nothing was sent: the answers are offered before a ticket exists.
      expect(await stack.db.selectFrom('support_tickets').select('id').where('requester_user_id', '=', tenant.userId).execute()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
