/**
 * A local SMS provider for the cluster: an HTTP server speaking Twilio's Messages API format, so the
 * worker sends every text exactly as in production (SMS_PROVIDER=twilio, TWILIO_API_URL pointing
 * here). Each message it accepts is written as a `.txt` file to one folder for a person to read,
 * and, as Twilio does, its delivery is reported to the message's StatusCallback, signed with the
 * auth token. Local only: no TLS.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { twilioSignature } from '../notifications/twilio';

export interface SmsSink {
  url: string;
  stop(): Promise<void>;
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** Twilio's error answer: {code, message, more_info, status}. */
function fail(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
}

export async function startSmsSink(dir: string, port: number, account: { sid: string; token: string }): Promise<SmsSink> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const expectedAuth = Buffer.from(`Basic ${Buffer.from(`${account.sid}:${account.token}`).toString('base64')}`);
  let count = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const path = `/2010-04-01/Accounts/${account.sid}/Messages.json`;
      if (req.method !== 'POST' || req.url !== path) return fail(res, 404, 20404, 'The requested resource was not found');
      const auth = Buffer.from(req.headers.authorization ?? '');
      if (auth.length !== expectedAuth.length || !timingSafeEqual(auth, expectedAuth)) return fail(res, 401, 20003, 'Authenticate');
      const form = Object.fromEntries(new URLSearchParams(await read(req)));
      if (!form.To || !form.Body || !(form.From || form.MessagingServiceSid)) return fail(res, 400, 21604, "A 'To', 'From' and 'Body' are required");
      const sid = `SM${randomBytes(16).toString('hex')}`;
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${++count}.txt`);
      await writeFile(file, `To: ${form.To}\nFrom: ${form.From ?? form.MessagingServiceSid}\nSid: ${sid}\n\n${form.Body}\n`, { mode: 0o600 });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sid, account_sid: account.sid, to: form.To, from: form.From ?? null, body: form.Body, status: 'queued', num_segments: '1', error_code: null, error_message: null }));
      if (form.StatusCallback) await report(form.StatusCallback, { MessageSid: sid, MessageStatus: 'delivered', AccountSid: account.sid, To: form.To });
    })().catch(() => {
      if (!res.headersSent) fail(res, 500, 20500, 'Internal Server Error');
    });
  });

  // The callback as Twilio sends it: form-encoded and signed; a portal that is down misses it, as with Twilio.
  const report = async (url: string, params: Record<string, string>) => {
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(account.token, url, params) },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
  };

  await new Promise<void>((ready, failed) => {
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => ready());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}
