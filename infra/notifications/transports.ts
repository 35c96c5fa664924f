import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** Headers the template declared (e.g. List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

export interface SmsMessage {
  to: string;
  text: string;
}

/** Sends one email; throws on failure so the delivery worker retries. */
export interface EmailTransport {
  send(message: EmailMessage): Promise<void>;
  close?(): void;
}

/** What a provider answers for a text it accepted: its id for the message, and the state it is in. */
export interface SmsSendResult {
  providerMessageId: string;
  status: string;
}

/** Sends one text message; throws on failure so the delivery worker retries (twilio.ts: the provider's API). */
export interface SmsTransport {
  send(message: SmsMessage): Promise<SmsSendResult | void>;
}

/** Email over SMTP with nodemailer (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.org:465). */
export class SmtpEmailTransport implements EmailTransport {
  private readonly transporter: Transporter;
  constructor(url: string, private readonly from: string) {
    this.transporter = nodemailer.createTransport(url);
  }
  async send(message: EmailMessage): Promise<void> {
    await this.transporter.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, ...(message.headers ? { headers: message.headers } : {}) });
  }
  close(): void {
    this.transporter.close();
  }
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
const safe = (s: string) => s.replace(/[^A-Za-z0-9@._+-]/g, '_');

/**
 * Message files hold sign-in codes and reset links: readable by the portal's own user only.
 * The folder is tightened too when it was made before (umask-wide).
 */
async function writePrivate(dir: string, name: string, content: Buffer | string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  await writeFile(join(dir, name), content, { mode: 0o600 });
}

/**
 * Development default: each email is written as a real RFC 822 `.eml` file (built by nodemailer) to a
 * folder, `.data/mail/` on `npm start`, so a developer can open the OTP and links a user would get.
 */
export class MailDirTransport implements EmailTransport {
  private readonly transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  constructor(private readonly dir: string, private readonly from: string) {}
  async send(message: EmailMessage): Promise<void> {
    const info = await this.transporter.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, ...(message.headers ? { headers: message.headers } : {}) });
    await writePrivate(this.dir, `${stamp()}-${safe(message.to)}.eml`, info.message as Buffer);
  }
}

/** Development default for SMS: one text file per message in `.data/sms/`. */
export class SmsDirTransport implements SmsTransport {
  constructor(private readonly dir: string) {}
  async send(message: SmsMessage): Promise<void> {
    await writePrivate(this.dir, `${stamp()}-${safe(message.to)}.txt`, `To: ${message.to}\n\n${message.text}\n`);
  }
}
