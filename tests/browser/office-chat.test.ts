/**
 * Browser test of the office's chat controls, read in Chinese by the manager on a 375 px phone and in
 * Spanish by the tenant: the manager pins a household message by keyboard and deletes one of its own
 * after confirming; a household message has no delete button for the office. The tenant then sees
 * the pinned message at the top and, in place of the deleted one, that it was deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { seriousAxeViolations } from '../helpers/axe';
import { launchChromium, openContext, settled, storageFor, watchConsoleErrors } from '../helpers/browser';
import { demoAccount, signIn, startStack, type Stack } from '../helpers/stack';

let browser: Browser;
let stack: Stack;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  stack = await startStack({ listen: true });
  browser = await launchChromium();
  // The signed-in app reads in the language of each user's profile.
  await stack.db.updateTable('users').set({ preferred_language: 'zh' }).where('username', '=', demoAccount('Manager').username).execute();
  await stack.db.updateTable('users').set({ preferred_language: 'es' }).where('username', '=', demoAccount('Tenant').username).execute();
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.close();
});

async function open(role: 'Tenant' | 'Manager', language: string): Promise<Page> {
  const { context, page } = await openContext(browser, stack.baseUrl, { storage: await storageFor(stack.app, role), language, label: `office-chat-${role}`, bypassCSP: true });
  contexts.push(context);
  return page;
}

/** Every button of the chat window at least 44 px high, and the window inside the 375 px screen. */
async function fitsPhone(window: Locator): Promise<void> {
  const box = (await window.boundingBox())!;
  expect(box.x >= 0 && box.x + box.width <= 375, 'the chat window lies inside the 375 px screen').toBe(true);
  const small = await window.evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>('button, textarea')].filter((b) => b.getBoundingClientRect().height < 44).map((b) => `${b.textContent?.trim()} ${b.getBoundingClientRect().height}px`),
  );
  expect(small).toEqual([]);
}

describe('the office pins and deletes chat messages', () => {
  it('a manager in Chinese pins by keyboard and deletes its own message after confirming; the tenant in Spanish sees both', async () => {
    const tenantAuth = await signIn(stack.app, 'Tenant');
    const managerAuth = await signIn(stack.app, 'Manager');
    const household = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', tenantAuth.userId).executeTakeFirstOrThrow();
    const send = async (headers: { authorization: string }, payload: object) => {
      const response = await stack.app.inject({ method: 'POST', url: '/api/Chat/SendMessage', headers: { authorization: headers.authorization }, payload });
      if (response.statusCode !== 201) throw new Error(`SendMessage answered ${response.statusCode}: ${response.body}`);
    };
    await send(tenantAuth, { message: '¿Cuándo viene el técnico de la calefacción?' });
    await send(managerAuth, { householdId: household.id, message: 'Mensaje enviado por error' });

    const manager = await open('Manager', 'zh');
    await manager.setViewportSize({ width: 375, height: 740 });
    const managerErrors = watchConsoleErrors(manager);
    await manager.goto('/manager/tasks');
    await settled(manager);
    await manager.getByRole('button', { name: /^消息/ }).click();
    const window = manager.getByRole('region', { name: '与管理处的消息' });
    await window.getByRole('button', { name: /Luis Ortega/ }).click();
    const question = window.getByRole('listitem').filter({ hasText: '¿Cuándo viene el técnico' });
    const mistake = window.getByRole('listitem').filter({ hasText: 'Mensaje enviado por error' });
    await question.waitFor();
    await mistake.waitFor();
    // The household's own message can be pinned but not deleted by the office.
    expect(await question.getByRole('button', { name: '删除' }).count()).toBe(0);

    // Pin by keyboard: focus the message's Pin button and press Enter.
    const pin = question.getByRole('button', { name: '置顶', exact: true });
    await pin.focus();
    await manager.keyboard.press('Enter');
    await expect.poll(() => question.getByRole('button', { name: '取消置顶' }).getAttribute('aria-pressed')).toBe('true');
    await window.getByTestId('chat-pinned').getByText('¿Cuándo viene el técnico', { exact: false }).waitFor();

    // Delete asks first; keeping the message changes nothing.
    await mistake.getByRole('button', { name: '删除' }).click();
    const dialog = manager.getByRole('dialog', { name: '删除这条消息？' });
    await dialog.getByText('此操作无法撤销', { exact: false }).waitFor();
    expect(await seriousAxeViolations(manager)).toEqual([]);
    await dialog.getByRole('button', { name: '保留消息' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await mistake.getByText('Mensaje enviado por error').waitFor();
    await mistake.getByRole('button', { name: '删除' }).click();
    await dialog.getByRole('button', { name: '是，删除' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // In its place the message now reads as deleted (the dialog's own text quotes the same words, hence exact).
    const deleted = window.getByRole('listitem').filter({ has: manager.getByText('此消息已删除。', { exact: true }) });
    await deleted.waitFor();
    await expect.poll(() => window.getByText('Mensaje enviado por error').count()).toBe(0);
    expect(await deleted.getByRole('button').count()).toBe(0);
    await fitsPhone(window);
    expect(await seriousAxeViolations(manager)).toEqual([]);

    const stored = await stack.db.selectFrom('chat_messages').select(['pinned', 'deleted_at', 'body_encrypted']).where('household_id', '=', household.id).orderBy('created_at').execute();
    expect(stored.map((m) => ({ pinned: m.pinned, deleted: m.deleted_at !== null, body: m.body_encrypted !== null }))).toEqual([
      { pinned: true, deleted: false, body: true },
      { pinned: false, deleted: true, body: false },
    ]);

    // The tenant, in Spanish, sees the pinned message at the top and that the other one was deleted, with no office controls.
    const tenant = await open('Tenant', 'es');
    const tenantErrors = watchConsoleErrors(tenant);
    await tenant.goto('/dashboard');
    await settled(tenant);
    await tenant.getByRole('button', { name: /^Mensajes/ }).click();
    const tenantWindow = tenant.getByRole('region', { name: 'Mensajes con la oficina administradora' });
    await tenantWindow.getByRole('region', { name: 'Mensajes fijados' }).getByText('¿Cuándo viene el técnico', { exact: false }).waitFor();
    await tenantWindow.getByText('Este mensaje fue eliminado.').waitFor();
    expect(await tenantWindow.getByRole('listitem').filter({ hasText: '¿Cuándo viene el técnico' }).getByText('Fijado', { exact: true }).count()).toBe(1);
    expect(await tenantWindow.getByRole('button', { name: 'Fijar' }).count()).toBe(0);
    expect(await seriousAxeViolations(tenant)).toEqual([]);
    expect([...managerErrors, ...tenantErrors]).toEqual([]);
  }, 180_000);
});
