import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../helpers/identity';
import { grantAccess, organizationId } from '../helpers/ambassador';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { unzip } from '../helpers/unzip';

/**
 * "Download my data" (GET /api/Household/my-data/export): the household's whole record as one zip
 * with a summary in its language; every download audited; refused to an ambassador acting for the
 * household, to staff and to the signed-out.
 */
describe('download my data', () => {
  let stack: Stack;
  let tenant: { authorization: string; userId: string };
  let householdId: string;
  const chat = `Hola oficina ${randomUUID().slice(0, 6)}`;
  const subject = `Llave perdida ${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    stack = await startStack();
    tenant = await signIn(stack.app, 'Tenant');
    householdId = (await stack.db.selectFrom('households').select('id').where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow()).id;
    const headers = { authorization: tenant.authorization };
    expect((await stack.app.inject({ method: 'POST', url: '/api/Chat/SendMessage', headers, payload: { message: chat } })).statusCode).toBeLessThan(300);
    expect((await stack.app.inject({ method: 'POST', url: '/api/SupportTicket/CreateSupportTicket', headers, payload: { category: 'documents', subject, message: 'No encuentro mi llave.' } })).statusCode).toBe(201);
  });
  afterAll(() => stack?.close());

  const download = (authorization: string | undefined, language?: string) =>
    stack.app.inject({ method: 'GET', url: `/api/Household/my-data/export${language ? `?language=${language}` : ''}`, headers: authorization ? { authorization } : {} });

  it('holds the profile, applications, documents, messages, tickets, access and its own log, with a summary in English and in Spanish', async () => {
    const english = await download(tenant.authorization, 'en');
    expect(english.statusCode, english.body).toBe(200);
    expect(english.headers['content-type']).toBe('application/zip');
    expect(english.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzip(english.rawPayload);
    for (const name of ['summary.txt', 'profile.json', 'applications.json', 'cases.json', 'letters.json', 'documents.json', 'messages.json', 'tickets.json', 'access.json', 'privacy-log.json']) {
      expect(files.has(name), name).toBe(true);
    }
    const summary = files.get('summary.txt')!.toString('utf8');
    expect(summary).toContain('Your data held by the housing portal');
    expect(summary).toContain('messages.json: 1 message(s)');
    const profile = JSON.parse(files.get('profile.json')!.toString('utf8'));
    expect(profile.household.id).toBe(householdId);
    expect(profile.members.length).toBeGreaterThan(0);
    expect(profile.incomes.length).toBeGreaterThan(0);
    // Identifiers leave only as their last 4 digits.
    expect(JSON.stringify(profile)).not.toMatch(/ssn_encrypted|v2:/);
    // The demo tenant's pay stub, as uploaded.
    const documents = [...files.keys()].filter((k) => k.startsWith('documents/'));
    expect(documents.some((k) => k.endsWith('pay-stub.pdf'))).toBe(true);
    expect(files.get(documents.find((k) => k.endsWith('pay-stub.pdf'))!)!.subarray(0, 5).toString()).toBe('%PDF-');
    expect(JSON.parse(files.get('messages.json')!.toString('utf8')).map((m: { body: string }) => m.body)).toContain(chat);
    expect(JSON.parse(files.get('tickets.json')!.toString('utf8')).map((t: { subject: string }) => t.subject)).toContain(subject);
    expect(JSON.parse(files.get('access.json')!.toString('utf8'))).toHaveProperty('grants');

    const spanish = unzip((await download(tenant.authorization, 'es')).rawPayload);
    const resumen = spanish.get('summary.txt')!.toString('utf8');
    expect(resumen).toContain('Sus datos guardados en el portal de vivienda');
    expect(resumen).toContain('messages.json: 1 mensaje(s)');
    // The second archive lists the first download in its privacy log.
    expect(JSON.parse(spanish.get('privacy-log.json')!.toString('utf8'))).toEqual([expect.objectContaining({ action: 'export' })]);

    const audit = await stack.db.selectFrom('privacy_audit').selectAll().where('household_id', '=', householdId).orderBy('id').execute();
    expect(audit.map((a) => [a.action, a.actor_user_id, (a.detail as { language?: string }).language])).toEqual([
      ['export', tenant.userId, 'en'],
      ['export', tenant.userId, 'es'],
    ]);
  });

  it('refuses an ambassador acting for the household, staff, the signed-out and bad input, auditing nothing', async () => {
    const before = Number((await stack.db.selectFrom('privacy_audit').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const ambassador = await signIn(stack.app, 'HousingAmbassador');
    await grantAccess(stack.db, { userId: tenant.userId, organizationId: await organizationId(stack.db), requestedBy: ambassador.userId });
    const start = await post(stack.app, `/api/Account/impersonate/${tenant.userId}`, {}, { authorization: ambassador.authorization });
    expect(start.statusCode, start.body).toBe(200);
    const acting = await download(`Bearer ${start.json().data.accessToken}`);
    expect(acting.statusCode).toBe(403);
    expect(acting.json()).toMatchObject({ status: 403, data: { code: 'notAllowedWhileImpersonating' } });
    expect((await download((await signIn(stack.app, 'Manager')).authorization)).statusCode).toBe(403);
    expect((await download(undefined)).statusCode).toBe(401);
    const bad = await download(tenant.authorization, 'fr');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400 });
    const after = Number((await stack.db.selectFrom('privacy_audit').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before);
  });
});
