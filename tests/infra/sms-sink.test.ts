import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsSink, type SmsSink } from '../../infra/cluster/sms-sink';
import { isValidTwilioSignature, SmsProviderError, TwilioSmsTransport } from '../../infra/notifications/twilio';

const account = { sid: `AC${'a'.repeat(32)}`, token: 'b'.repeat(32) };

/** The cluster's local SMS provider: the portal's Twilio adapter sends to it as to Twilio, and it reports delivery signed. */
describe('the cluster SMS sink', () => {
  let dir: string;
  let sink: SmsSink;
  let portal: Server;
  let callbackUrl: string;
  const callbacks: { valid: boolean; form: Record<string, string> }[] = [];
  let delivered: () => void;
  const arrived = new Promise<void>((resolve) => (delivered = resolve));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sms-sink-'));
    sink = await startSmsSink(dir, 0, account);
    // Stands for the portal's status webhook: checks the signature as the API does.
    portal = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        callbacks.push({ valid: isValidTwilioSignature(account.token, callbackUrl, form, req.headers['x-twilio-signature'] as string | undefined), form });
        res.end();
        delivered();
      });
    });
    await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(portal.address() as AddressInfo).port}/api/Sms/status`;
  });
  afterAll(async () => {
    await sink?.stop();
    await new Promise<void>((resolve) => (portal ? portal.close(() => resolve()) : resolve()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('accepts a text in the provider format, writes it to its folder and reports it delivered, signed', async () => {
    const transport = new TwilioSmsTransport({ apiUrl: sink.url, accountSid: account.sid, authToken: account.token, from: '+15005550006', statusCallbackUrl: callbackUrl });
    const sent = await transport.send({ to: '(212) 555-0100', text: 'Housing Portal: Su recertificación vence pronto.' });
    expect(sent).toEqual({ providerMessageId: expect.stringMatching(/^SM[0-9a-f]{32}$/), status: 'queued' });
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(await readFile(join(dir, files[0]!), 'utf8')).toBe(`To: +12125550100\nFrom: +15005550006\nSid: ${sent!.providerMessageId}\n\nHousing Portal: Su recertificación vence pronto.\n`);
    await arrived;
    expect(callbacks).toEqual([{ valid: true, form: expect.objectContaining({ MessageSid: sent!.providerMessageId, MessageStatus: 'delivered' }) }]);
  });

  it('refuses a wrong token with the provider error format, which the adapter leaves to a retry (the operator may fix it)', async () => {
    const transport = new TwilioSmsTransport({ apiUrl: sink.url, accountSid: account.sid, authToken: 'c'.repeat(32), from: '+15005550006', statusCallbackUrl: callbackUrl });
    const error = await transport.send({ to: '+12125550100', text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsProviderError);
    expect(error).toMatchObject({ httpStatus: 401, code: 20003, permanent: false });
  });
});
