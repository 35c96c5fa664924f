import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities';
import { createTransports, deliverPending, loadNotificationConfig, twilioSignature, type Transports } from '../../infra/notifications';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

interface ProviderRequest {
  path: string;
  authorization: string;
  form: Record<string, string>;
}

const ACCOUNT_SID = `AC${randomBytes(16).toString('hex')}`;
const AUTH_TOKEN = randomBytes(16).toString('hex');
const FROM = '+15005550006';
const PUBLIC_BASE_URL = 'https://portal.example.org';
// A number the provider refuses, as Twilio refuses an invalid "To" (error 21211, HTTP 400).
const REFUSED_NUMBER = '+15005550001';

/**
 * A server speaking Twilio's Messages API format: form-encoded POSTs with basic auth answered with
 * the message's sid and status, and Twilio's error JSON on a 4xx.
 */
async function startProvider(): Promise<{ server: Server; url: string; received: ProviderRequest[] }> {
  const received: ProviderRequest[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      const form = Object.fromEntries(new URLSearchParams(body));
      received.push({ path: req.url ?? '', authorization: req.headers.authorization ?? '', form });
      res.setHeader('content-type', 'application/json');
      if (form.To === REFUSED_NUMBER) {
        res.statusCode = 400;
        res.end(JSON.stringify({ code: 21211, message: `The 'To' number ${form.To} is not a valid phone number.`, more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 }));
        return;
      }
      res.statusCode = 201;
      res.end(JSON.stringify({ sid: `SM${randomBytes(16).toString('hex')}`, status: 'queued', to: form.To, from: form.From, body: form.Body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** The SMS provider adapter, its webhooks and opt-outs, against a local server speaking Twilio's format. */
describe.sequential('text messages through the provider', () => {
  let stack: Stack;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let transports: Transports;
  let applicant: { authorization: string; userId: string };
  let manager: { authorization: string; userId: string };
  const phone = '(718) 555-0123';

  beforeAll(async () => {
    provider = await startProvider();
    const env = { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN, TWILIO_FROM: FROM, TWILIO_API_URL: provider.url, PUBLIC_BASE_URL };
    stack = await startStack({ config: env });
    transports = createTransports(loadNotificationConfig(env));
    [applicant, manager] = await Promise.all([signIn(stack.app, 'User'), signIn(stack.app, 'Manager')]);
    await stack.db.updateTable('users').set({ phone_number: phone, preferred_language: 'es' }).where('id', '=', applicant.userId).execute();
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
    await new Promise<void>((resolve) => (provider?.server ? provider.server.close(() => resolve()) : resolve()));
  });

  const deliver = () => deliverPending({ db: stack.db, transports, context: { baseUrl: PUBLIC_BASE_URL } });
  const basicAuth = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
  /** A webhook as the provider would post it: form-encoded, signed over the public URL and the form. */
  const webhook = (path: string, form: Record<string, string>, signature = twilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}${path}`, form)) =>
    stack.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, payload: new URLSearchParams(form).toString() });
  const lastRequest = () => provider.received.at(-1)!;

  it('sends a sign-in code as a provider request with the right body and auth, and the code signs in', async () => {
    await stack.db.updateTable('users').set({ mfa_enabled: true }).where('id', '=', applicant.userId).execute();
    const login = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: 'applicant', password: 'Applicant#2026' } });
    expect(login.json().data).toMatchObject({ mfaRequired: true });
    const sent = await stack.app.inject({ method: 'POST', url: '/api/Account/send-otp', payload: { userId: applicant.userId, otpChannel: 'sms' } });
    expect(sent.json()).toMatchObject({ status: 200, data: { otpChannel: 'sms' } });
    const before = provider.received.length;
    expect(await deliver()).toBe(1);
    expect(provider.received.length).toBe(before + 1);
    const request = lastRequest();
    expect(request.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request.authorization).toBe(basicAuth);
    expect(request.form).toMatchObject({ To: '+17185550123', From: FROM, StatusCallback: `${PUBLIC_BASE_URL}/api/Sms/status` });
    const code = /Código del Portal de Vivienda: (\d{6}) \(vence en \d+ min\)/.exec(request.form.Body ?? '')?.[1];
    expect(code, request.form.Body).toBeTruthy();
    // The row keeps the provider's id and state, not the code.
    const row = await stack.db.selectFrom('notification_outbox').select(['provider_message_id', 'delivery_status', 'params']).where('user_id', '=', applicant.userId).where('template', '=', 'otp').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(row.provider_message_id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(row.delivery_status).toBe('queued');
    expect(row.params).not.toHaveProperty('code');
    const verified = await stack.app.inject({ method: 'POST', url: '/api/Account/verify-otp', payload: { userId: applicant.userId, otp: code } });
    expect(verified.statusCode).toBe(200);
    await stack.db.updateTable('users').set({ mfa_enabled: false }).where('id', '=', applicant.userId).execute();
  });

  it('refuses a forged status callback (403 in the envelope) and records a signed one', async () => {
    const row = await stack.db.selectFrom('notification_outbox').select(['id', 'provider_message_id']).where('provider_message_id', 'is not', null).executeTakeFirstOrThrow();
    const form = { MessageSid: row.provider_message_id!, MessageStatus: 'delivered', AccountSid: ACCOUNT_SID };
    const forged = await webhook('/api/Sms/status', form, twilioSignature('not-the-token-at-all', `${PUBLIC_BASE_URL}/api/Sms/status`, form));
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ status: 403, data: { code: 'forbidden' } });
    // A signature over other parameters is refused too (the form was changed on the way).
    const tampered = await webhook('/api/Sms/status', { ...form, MessageStatus: 'failed' }, twilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}/api/Sms/status`, form));
    expect(tampered.statusCode).toBe(403);
    const unsigned = await stack.app.inject({ method: 'POST', url: '/api/Sms/status', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
    expect(unsigned.statusCode).toBe(403);
    expect((await stack.db.selectFrom('notification_outbox').select('delivery_status').where('id', '=', row.id).executeTakeFirstOrThrow()).delivery_status).toBe('queued');

    const signed = await webhook('/api/Sms/status', form);
    expect(signed.statusCode).toBe(200);
    expect((await stack.db.selectFrom('notification_outbox').select('delivery_status').where('id', '=', row.id).executeTakeFirstOrThrow()).delivery_status).toBe('delivered');
    // A late "sent" does not take a delivered message back.
    await webhook('/api/Sms/status', { ...form, MessageStatus: 'sent' });
    expect((await stack.db.selectFrom('notification_outbox').select('delivery_status').where('id', '=', row.id).executeTakeFirstOrThrow()).delivery_status).toBe('delivered');
  });

  let applicationId: string;
  const offerNotice = (offer: string) => ({
    userId: applicant.userId,
    template: 'lease-up-offer-expired',
    params: { applicationId, offerId: offer },
    dedupeKey: `lease-up:${applicationId}:UnitOfferExpired:${offer}`,
  });

  it('sends an offer notice by text to someone who chose texts only, in their language, with no identifiers', async () => {
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('kind', '=', 'rental').orderBy('name').executeTakeFirstOrThrow();
    const applied = await stack.app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: { authorization: applicant.authorization }, payload: { opportunityId: opportunity.id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true } });
    expect(applied.statusCode).toBe(201);
    applicationId = applied.json().data.applicationId;
    await stack.db.updateTable('users').set({ notify_email: false, notify_sms: true }).where('id', '=', applicant.userId).execute();

    const activities = createActivities({ db: stack.db, blobs: stack.blobs });
    const offerId = '6a1f0c9e-7b2d-4e8f-9a3c-1d2e3f4a5b6c';
    expect(await activities.sendNotice(offerNotice(offerId))).toMatchObject({ queued: true, channels: ['sms'] });
    expect(await deliver()).toBe(1);
    const request = lastRequest();
    expect(request.authorization).toBe(basicAuth);
    expect(request.form.To).toBe('+17185550123');
    expect(request.form.Body).toBe(`Portal de Vivienda: Una oferta de unidad ha vencido. ${PUBLIC_BASE_URL}/myApplications`);
    expect(request.form.Body).not.toContain(offerId);
    expect(request.form.Body).not.toContain(applicationId);
  });

  it('shows the manager a notice whose text the provider reports failed, with the reason', async () => {
    const failedOffer = '7b2e1d0f-8c3e-4f9a-8b4d-2e3f4a5b6c7d';
    await createActivities({ db: stack.db, blobs: stack.blobs }).sendNotice(offerNotice(failedOffer));
    await deliver();
    const row = await stack.db.selectFrom('notification_outbox').select('provider_message_id').where('dedupe_key', '=', `lease-up:${applicationId}:UnitOfferExpired:${failedOffer}:sms`).executeTakeFirstOrThrow();
    const callback = await webhook('/api/Sms/status', { MessageSid: row.provider_message_id!, MessageStatus: 'undelivered', ErrorCode: '30003' });
    expect(callback.statusCode).toBe(200);

    const caseFile = await eventually(async () => {
      const res = await stack.app.inject({ url: `/api/CaseFile/lease-up/${applicationId}`, headers: { authorization: manager.authorization } });
      return res.statusCode === 200 ? res.json().data : undefined;
    }, 30_000, 'the manager reads the case file');
    expect(caseFile.undeliveredNotices).toEqual([
      { template: 'lease-up-offer-expired', createdAt: expect.any(String), channels: [{ channel: 'sms', reason: 'undelivered', detail: 'the provider reported undelivered (error 30003)' }] },
    ]);
    const console = await signIn(stack.app, 'Admin');
    const operator = await stack.app.inject({ url: '/api/Operator/undelivered-notices', headers: { authorization: console.authorization } });
    expect(operator.statusCode).toBe(200);
    expect(operator.json().data.items[0]).toMatchObject({ template: 'lease-up-offer-expired', caseKey: `lease-up:${applicationId}`, channels: [{ channel: 'sms', reason: 'undelivered' }] });
  });

  it('honours STOP: the next text is not sent, codes go by email saying so, settings show it; START resumes', async () => {
    const stop = await webhook('/api/Sms/inbound', { From: '+17185550123', To: FROM, Body: 'Stop', MessageSid: `SM${randomBytes(16).toString('hex')}` });
    expect(stop.statusCode).toBe(200);
    expect(stop.headers['content-type']).toContain('text/xml');
    expect(stop.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>Portal de Vivienda: ya no le enviaremos mensajes de texto. Responda START para volver a recibirlos.</Message></Response>');
    const forged = await webhook('/api/Sms/inbound', { From: '+17185550123', To: FROM, Body: 'START', MessageSid: 'SMx' }, 'bm90IGEgc2lnbmF0dXJl');
    expect(forged.statusCode).toBe(403);

    const settings = await stack.app.inject({ url: '/api/UserProfile/settings', headers: { authorization: applicant.authorization } });
    expect(settings.json().data).toMatchObject({ notifyBySms: true, smsOptedOut: true });

    // A text queued before the STOP arrived is not sent, and the case shows why.
    const before = provider.received.length;
    const queuedBefore = '8c3f2e1a-9d4f-4a0b-8c5e-3f4a5b6c7d8e';
    await stack.db.updateTable('users').set({ notify_email: true }).where('id', '=', applicant.userId).execute();
    // A notice after the STOP goes by email only.
    expect(await createActivities({ db: stack.db, blobs: stack.blobs }).sendNotice(offerNotice('9d4a3f2b-0e5a-4b1c-9d6f-4a5b6c7d8e9f'))).toMatchObject({ channels: ['email'] });
    await stack.db
      .insertInto('notification_outbox')
      .values({ user_id: applicant.userId, channel: 'sms', to_address: phone, template: 'lease-up-offer-expired', language: 'es', params: JSON.stringify({ applicationId, offerId: queuedBefore }), dedupe_key: `lease-up:${applicationId}:UnitOfferExpired:${queuedBefore}:sms`, notice_key: `lease-up:${applicationId}:UnitOfferExpired:${queuedBefore}`, case_key: `lease-up:${applicationId}` })
      .execute();
    await deliver();
    expect(provider.received.length).toBe(before);
    const stopped = await stack.db.selectFrom('notification_outbox').select(['status', 'undelivered_reason']).where('dedupe_key', '=', `lease-up:${applicationId}:UnitOfferExpired:${queuedBefore}:sms`).executeTakeFirstOrThrow();
    expect(stopped).toEqual({ status: 'failed', undelivered_reason: 'opted_out' });

    // A signature code asked for by text goes to the email on file, and the answer says so.
    const code = await stack.app.inject({ method: 'POST', url: '/api/Signature/generateotpforchangesignrature', headers: { authorization: applicant.authorization }, payload: { otpChannel: 'sms' } });
    expect(code.json()).toMatchObject({ status: 200, data: { otpChannel: 'email' }, message: expect.stringContaining('opted out of text messages') });
    const latest = await stack.db.selectFrom('notification_outbox').select('channel').where('user_id', '=', applicant.userId).where('template', '=', 'otp').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(latest.channel).toBe('email');

    const start = await webhook('/api/Sms/inbound', { From: '+1 718 555 0123', To: FROM, Body: 'START', MessageSid: `SM${randomBytes(16).toString('hex')}` });
    expect(start.body).toContain('volverá a recibir');
    const after = await stack.app.inject({ url: '/api/UserProfile/settings', headers: { authorization: applicant.authorization } });
    expect(after.json().data).toMatchObject({ smsOptedOut: false });
  });

  it('stops at once when the provider refuses the number, and says so on the case', async () => {
    await stack.db.updateTable('users').set({ phone_number: REFUSED_NUMBER, notify_email: false }).where('id', '=', applicant.userId).execute();
    const refusedOffer = '0e5b4a3c-1f6b-4c2d-8e7a-5b6c7d8e9f0a';
    await createActivities({ db: stack.db, blobs: stack.blobs }).sendNotice(offerNotice(refusedOffer));
    await deliver();
    const row = await stack.db.selectFrom('notification_outbox').select(['status', 'attempts', 'undelivered_reason', 'last_error']).where('notice_key', '=', `lease-up:${applicationId}:UnitOfferExpired:${refusedOffer}`).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: 1, undelivered_reason: 'failed' });
    // The provider's message quoted the number: the row keeps the error, not the number.
    expect(row.last_error).toContain('21211');
    expect(row.last_error).not.toContain('5550001');
  });
});
