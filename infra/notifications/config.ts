import { join } from 'node:path';
import { z } from 'zod';
import { MailDirTransport, SmsDirTransport, SmtpEmailTransport, type EmailTransport, type SmsTransport } from './transports';

/**
 * Notification settings from the environment. Without SMTP_URL, emails are written to MAIL_DIR
 * (default `.data/mail`) and text messages to SMS_DIR (default `.data/sms`) for a developer to read.
 */
export const NotificationConfigSchema = z.object({
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Housing Portal <no-reply@housing-portal.local>'),
  MAIL_DIR: z.string().optional(),
  SMS_DIR: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:3000'),
  NOTIFICATION_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
});
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
  // No SMS provider is wired yet: text messages land in a folder everywhere (see SmsTransport).
  const sms = new SmsDirTransport(config.SMS_DIR ?? join(config.DATA_DIR, 'sms'));
  return { email, sms };
}
