import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalPath } from '../../domain';
import { deliverPending } from '../../infra/notifications';
import { findTemplate } from '../../infra/notifications/templates';
import { startStack, type Stack } from '../helpers/stack';

/**
 * Spec section 7, the notification redirect log: links in emails and texts go through
 * POST /api/redirect/redirectToDestination, which records the click and forwards only to the
 * portal's own pages.
 */
describe('notification redirect log', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  const queue = async (template: string, params: Record<string, unknown>) => {
    const user = await stack.db.selectFrom('users').select(['id', 'email']).where('username', '=', 'tenant').executeTakeFirstOrThrow();
    return stack.db
      .insertInto('notification_outbox')
      .values({ user_id: user.id, channel: 'email', to_address: user.email, template, language: 'es', params: JSON.stringify(params) })
      .returning('id')
      .executeTakeFirstOrThrow();
  };
  const click = (notificationId: string, destination: string) =>
    stack.app.inject({ method: 'POST', url: '/api/redirect/redirectToDestination', payload: { notificationId, destination } });

  it('sends every link of a delivered message through the redirect log', async () => {
    const row = await queue('recertification-notice', { daysBefore: 30, deadline: '2027-01-31' });
    const sent: { text: string }[] = [];
    await deliverPending({ db: stack.db, transports: { email: { send: async (m) => void sent.push(m) }, sms: { send: async () => undefined } }, context: { baseUrl: 'https://portal.example' } });
    const link = /https:\/\/portal\.example\/\?\S+/.exec(sent.find((m) => m.text.includes('2027-01-31'))!.text)![0];
    const url = new URL(link);
    expect(url.searchParams.get('redirect')).toBe('/recertification');
    expect(url.searchParams.get('notification')).toBe(row.id);
    // Templates with a link token (verification, reset) go through it as well.
    // Links that carry a secret (a reset or verification token) go straight to their page, so the
    // secret is never copied into the click record or the start page's address.
    for (const name of ['verify-email', 'reset-password']) {
      const message = findTemplate(name)!.render('bn', { firstName: 'Ana', path: '/resetpassword?userId=u&token=t' }, { baseUrl: 'https://portal.example', notificationId: row.id });
      expect(message.text, name).toContain('https://portal.example/resetpassword?userId=u&token=t');
      expect(message.text, name).not.toContain('redirect=');
    }
  });

  it('records the click (path only) and answers the destination', async () => {
    const row = await queue('verify-email', { firstName: 'Ana' });
    const answer = await click(row.id, '/resetpassword?userId=u&token=secret#top');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toEqual({ destination: '/resetpassword?userId=u&token=secret#top' });
    const clicks = await stack.db.selectFrom('notification_clicks').selectAll().where('notification_id', '=', row.id).execute();
    expect(clicks).toEqual([expect.objectContaining({ destination_path: '/resetpassword' })]);
  });

  it('never forwards to another site, to the API, or for an unknown notification', async () => {
    const row = await queue('verify-email', { firstName: 'Ana' });
    for (const destination of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/api/Account/logout', 'dashboard', '/\u0000x']) {
      const answer = await click(row.id, destination);
      expect(answer.statusCode, destination).toBe(400);
    }
    expect((await click('00000000-0000-4000-8000-000000000000', '/dashboard')).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'POST', url: '/api/redirect/redirectToDestination', payload: { notificationId: 'x' } })).statusCode).toBe(400);
    expect(await stack.db.selectFrom('notification_clicks').selectAll().where('notification_id', '=', row.id).execute()).toEqual([]);
  });

  it('reads a portal path as a browser would', () => {
    expect(portalPath('/myApplications/abc?tab=1')).toBe('/myApplications/abc?tab=1');
    expect(portalPath('/a/../dashboard')).toBe('/dashboard');
    expect(portalPath('/\\evil.example')).toBeNull();
    expect(portalPath('/\tevil')).toBeNull();
  });
});
