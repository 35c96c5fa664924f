import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueNotification } from '../../infra/db/repositories/notification-outbox';
import type { Db } from '../../infra/db/database';
import { deliverPending, MailDirTransport, SmsDirTransport, SmtpEmailTransport, startDeliveryLoop, type SmsMessage, type Transports } from '../../infra/notifications';
import { createTestDatabase, eventually } from '../helpers/stack';

interface Received {
  to: string[];
  raw: string;
}

/** The outbox delivery worker against a real SMTP server (smtp-server on a loopback port). */
describe('notification delivery', () => {
  let db: Db;
  let server: SMTPServer;
  let port: number;
  let received: Received[] = [];
  let refuseRecipients = false;
  let rejectRecipients = false;
  let smsSent: SmsMessage[] = [];
  let transports: Transports;
  const context = { baseUrl: 'https://portal.example.org' };

  beforeAll(async () => {
    ({ db } = await createTestDatabase());
    server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuseRecipients) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 450 }));
        if (rejectRecipients) return callback(Object.assign(new Error('no such user here'), { responseCode: 550 }));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
    transports = {
      email: new SmtpEmailTransport(`smtp://127.0.0.1:${port}`, 'Housing Portal <no-reply@portal.test>'),
      sms: { send: async (m) => void smsSent.push(m) },
    };
  });
  afterAll(async () => {
    transports?.email.close?.();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await db?.destroy();
  });
  beforeEach(async () => {
    received = [];
    smsSent = [];
    refuseRecipients = false;
    rejectRecipients = false;
    await db.deleteFrom('notification_outbox').execute();
  });

  /** Headers plus the body decoded from the transfer encoding nodemailer chose (7bit, quoted-printable or base64). */
  const decode = (raw: string) => {
    const split = raw.search(/\r?\n\r?\n/);
    const headers = raw.slice(0, split);
    const body = raw.slice(split).trim();
    const encoding = /^Content-Transfer-Encoding: (.+)$/im.exec(headers)?.[1]?.trim().toLowerCase();
    if (encoding === 'base64') return `${headers}\n\n${Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')}`;
    if (encoding === 'quoted-printable') {
      const text = body.replace(/=\r?\n/g, '').replace(/(=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
      return `${headers}\n\n${text}`;
    }
    return raw;
  };

  it('sends a queued OTP email over SMTP in the recipient language and wipes the code from the row', async () => {
    await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'rosa@example.org', template: 'otp', language: 'es', params: { code: '482913', minutes: 10 } });
    expect(await deliverPending({ db, transports, context })).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['rosa@example.org']);
    const text = decode(received[0]!.raw);
    expect(text).toContain('Su código de verificación es 482913');
    expect(text).toMatch(/^Subject: .*/m);
    const row = await db.selectFrom('notification_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row.params).toEqual({ minutes: 10 });
    // Nothing left to send: a second pass sends nothing again.
    expect(await deliverPending({ db, transports, context })).toBe(0);
    expect(received).toHaveLength(1);
  });

  it('sends a listing alert with RFC 8058 one-click unsubscribe headers, and its text with STOP, the token wiped once sent', async () => {
    const params = { listingName: 'Alert Court', deadline: '2027-01-31', rentMin: 1100, rentMax: 1850, listingPath: '/public/opportunity/abc', unsubscribeToken: 'Tok_en-1234567890abcdefghij' };
    await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'ana@example.org', template: 'listing-alert', language: 'es', params, dedupeKey: 'alert:l:a' });
    await enqueueNotification(db, { userId: null, channel: 'sms', toAddress: '+12125550142', template: 'listing-alert', language: 'en', params, dedupeKey: 'alert:l:b' });
    expect(await deliverPending({ db, transports, context })).toBe(2);
    // Long header lines are folded (RFC 5322): read them unfolded.
    const text = decode(received[0]!.raw).replace(/\r?\n[ \t]+/g, ' ').replace(/\r/g, '');
    expect(text).toMatch(/^List-Unsubscribe: <https:\/\/portal\.example\.org\/api\/ListingAlerts\/one-click\?token=Tok_en-1234567890abcdefghij>$/m);
    expect(text).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(text).toContain('Alert Court');
    expect(text).toContain('$1,100 – $1,850');
    expect(text).toContain('https://portal.example.org/alerts/unsubscribe?token=Tok_en-1234567890abcdefghij');
    expect(smsSent[0]!.text).toMatch(/Reply STOP to stop$/);
    expect(smsSent[0]!.text).not.toContain('Alert Court');
    const rows = await db.selectFrom('notification_outbox').select('params').execute();
    for (const row of rows) expect(row.params).not.toHaveProperty('unsubscribeToken');
  });

  it('builds links from the public address and sends SMS through the SMS transport', async () => {
    await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'a@example.org', template: 'reset-password', language: 'zh', params: { firstName: 'Li', path: '/resetpassword?userId=u&token=t' } });
    await enqueueNotification(db, { userId: null, channel: 'sms', toAddress: '2125550100', template: 'otp', language: 'bn', params: { code: '111222', minutes: 10 } });
    expect(await deliverPending({ db, transports, context })).toBe(2);
    expect(decode(received[0]!.raw)).toContain('https://portal.example.org/resetpassword?userId=u&token=t');
    expect(smsSent).toEqual([{ to: '2125550100', text: 'হাউজিং পোর্টাল কোড: 111222 (10 মিনিটে মেয়াদ শেষ)' }]);
  });

  it('keeps a message pending with a back-off when the SMTP server refuses it, and sends it on a later try', async () => {
    await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'b@example.org', template: 'otp', language: 'en', params: { code: '999000', minutes: 10 } });
    refuseRecipients = true;
    expect(await deliverPending({ db, transports, context })).toBe(0);
    const failed = await db.selectFrom('notification_outbox').selectAll().executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed.last_error).toContain('mailbox unavailable');
    // Not due yet: the back-off holds it.
    refuseRecipients = false;
    expect(await deliverPending({ db, transports, context })).toBe(0);
    await db.updateTable('notification_outbox').set({ next_attempt_at: new Date(Date.now() - 1000) } as never).execute();
    expect(await deliverPending({ db, transports, context })).toBe(1);
    expect(decode(received[0]!.raw)).toContain('Your verification code is 999000');
  });

  it('ends a message the mail server refuses for good (5xx) at once, as bounced', async () => {
    await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'gone@example.org', template: 'otp', language: 'en', params: { code: '999111', minutes: 10 } });
    rejectRecipients = true;
    expect(await deliverPending({ db, transports, context })).toBe(0);
    const row = await db.selectFrom('notification_outbox').select(['status', 'attempts', 'undelivered_reason', 'last_error', 'params']).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', attempts: 1, undelivered_reason: 'bounced' });
    expect(row.last_error).toContain('no such user here');
    expect(row.params).not.toHaveProperty('code');
  });

  it('marks a row with an unknown template failed instead of dropping it', async () => {
    await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'c@example.org', template: 'no-such-template', language: 'en', params: {} });
    await deliverPending({ db, transports, context });
    expect(await db.selectFrom('notification_outbox').select(['status', 'last_error']).executeTakeFirstOrThrow()).toEqual({ status: 'failed', last_error: 'unknown template no-such-template' });
  });

  it('two workers draining the outbox together send every message exactly once', async () => {
    for (let i = 0; i < 12; i++) {
      await enqueueNotification(db, { userId: null, channel: 'email', toAddress: `p${i}@example.org`, template: 'otp', language: 'en', params: { code: String(100000 + i), minutes: 10 } });
    }
    const [a, b] = await Promise.all([deliverPending({ db, transports, context }, 50), deliverPending({ db, transports, context }, 50)]);
    expect(a + b).toBe(12);
    expect(received.map((r) => r.to[0]).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}@example.org`).sort());
  });

  it('on the embedded default writes each email as an .eml file a developer can open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mail-'));
    try {
      const local: Transports = { email: new MailDirTransport(dir, 'Housing Portal <no-reply@portal.test>'), sms: transports.sms };
      await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'dev@example.org', template: 'verify-email', language: 'en', params: { firstName: 'Dev', path: '/verify-email?userId=1&token=abc' } });
      expect(await deliverPending({ db, transports: local, context })).toBe(1);
      const files = await readdir(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/dev@example\.org\.eml$/);
      const eml = decode(await readFile(join(dir, files[0]!), 'utf8'));
      expect(eml).toMatch(/^To: dev@example\.org$/m);
      expect(eml).toContain('https://portal.example.org/verify-email?userId=1&token=abc');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes email and text message files readable by their owner only (they hold codes and links)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'private-'));
    try {
      const mailDir = join(root, 'mail');
      const smsDir = join(root, 'sms');
      await mkdir(smsDir, { mode: 0o755 }); // made before, wide open: tightened on the next message
      await new MailDirTransport(mailDir, 'Housing Portal <no-reply@portal.test>').send({ to: 'dev@example.org', subject: 'Your code', text: 'Code 123456' });
      await new SmsDirTransport(smsDir).send({ to: '+12125550142', text: 'Code 654321' });
      for (const dir of [mailDir, smsDir]) {
        expect((await stat(dir)).mode & 0o777).toBe(0o700);
        const files = await readdir(dir);
        expect(files).toHaveLength(1);
        expect((await stat(join(dir, files[0]!))).mode & 0o777).toBe(0o600);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('the worker loop keeps polling: a message queued while it runs is sent without a restart', async () => {
    // The loop's reads of the outbox, counted as their answers come back.
    let polls = 0;
    const counted = db.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => ((polls += 1), args.result) });
    const loop = startDeliveryLoop({ db: counted, transports: { ...transports, email: { send: (m) => transports.email.send(m) } }, context }, 50);
    try {
      // The barrier: the loop has found the outbox empty and polled again (it is in its cycle, not
      // in its first look), so the message below is queued while it runs.
      await eventually(async () => polls >= 1, 15_000, 'the delivery loop answered its first poll');
      const first = polls;
      await eventually(async () => polls > first, 15_000, 'the delivery loop polled again');
      await enqueueNotification(db, { userId: null, channel: 'email', toAddress: 'late@example.org', template: 'otp', language: 'en', params: { code: '246810', minutes: 10 } });
      await eventually(async () => received.length === 1);
      expect(received[0]!.to).toEqual(['late@example.org']);
    } finally {
      await loop.stop();
    }
  });
});
