import { join } from 'node:path';
import { z } from 'zod';
import { MailDirTransport, SmsDirTransport, SmtpEmailTransport, type EmailTransport, type SmsTransport } from './transports';
import { TwilioSmsTransport } from './twilio';

/**
 * Where text messages go: `file` writes each to SMS_DIR (development), `twilio` sends them through
 * Twilio's Messages API (or any server speaking its format at TWILIO_API_URL). The API checks the
 * provider's status callbacks and inbound texts with the same auth token.
 */
export const SmsSettingsShape = {
  SMS_PROVIDER: z.enum(['file', 'twilio']).default('file'),
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-zA-Z]{8,}$/, 'must be a Twilio account SID (AC...)').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, 'must be the account\'s auth token').optional(),
  /** The sending number (+E.164) or a Messaging Service SID (MG...). */
  TWILIO_FROM: z.string().regex(/^(\+\d{6,15}|MG[0-9a-zA-Z]{8,})$/, 'must be a phone number like +12125550100 or a Messaging Service SID (MG...)').optional(),
  TWILIO_API_URL: z.string().url('must be a URL like https://api.twilio.com').default('https://api.twilio.com'),
  /** The portal's public address: links in messages, and the address the provider's callbacks are signed for. */
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:3000'),
} as const;

/** With SMS_PROVIDER=twilio the account, its token and the sender are required. */
export function checkSmsSettings(c: { SMS_PROVIDER: 'file' | 'twilio'; TWILIO_ACCOUNT_SID?: string; TWILIO_AUTH_TOKEN?: string; TWILIO_FROM?: string }, ctx: z.RefinementCtx): void {
  if (c.SMS_PROVIDER !== 'twilio') return;
  for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) {
    if (!c[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when SMS_PROVIDER=twilio' });
  }
}

/**
 * Notification settings from the environment. Without SMTP_URL, emails are written to MAIL_DIR
 * (default `.data/mail`), and without SMS_PROVIDER=twilio text messages to SMS_DIR (default
 * `.data/sms`), for a developer to read.
 */
export const NotificationConfigSchema = z
  .object({
  ...SmsSettingsShape,
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Housing Portal <no-reply@housing-portal.local>'),
  MAIL_DIR: z.string().optional(),
  SMS_DIR: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  NOTIFICATION_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  })
  .superRefine(checkSmsSettings);
export type NotificationConfig = z.infer<typeof NotificationConfigSchema>;

export function loadNotificationConfig(env: NodeJS.ProcessEnv = process.env): NotificationConfig {
  const parsed = NotificationConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export interface Transports {
  email: EmailTransport;
  sms: SmsTransport;
}

export function createTransports(config: NotificationConfig): Transports {
  const email = config.SMTP_URL
    ? new SmtpEmailTransport(config.SMTP_URL, config.MAIL_FROM)
    : new MailDirTransport(config.MAIL_DIR ?? join(config.DATA_DIR, 'mail'), config.MAIL_FROM);
  const sms =
    config.SMS_PROVIDER === 'twilio'
      ? new TwilioSmsTransport({
          apiUrl: config.TWILIO_API_URL,
          accountSid: config.TWILIO_ACCOUNT_SID!,
          authToken: config.TWILIO_AUTH_TOKEN!,
          from: config.TWILIO_FROM!,
          statusCallbackUrl: smsStatusCallbackUrl(config.PUBLIC_BASE_URL),
        })
      : new SmsDirTransport(config.SMS_DIR ?? join(config.DATA_DIR, 'sms'));
  return { email, sms };
}

/** Where the provider posts delivery states: the API's status webhook (api/routes/sms-webhooks.ts). */
export const SMS_STATUS_PATH = '/api/Sms/status';
export const SMS_INBOUND_PATH = '/api/Sms/inbound';
export const smsStatusCallbackUrl = (baseUrl: string) => `${baseUrl.replace(/\/$/, '')}${SMS_STATUS_PATH}`;
