import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SmsMessage, SmsSendResult, SmsTransport } from './transports';

export interface TwilioSettings {
  /** https://api.twilio.com, or a local server speaking the same format. */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** A sending number (+E.164) or a Messaging Service SID (MG...). */
  from: string;
  /** Where Twilio posts the message's delivery states. */
  statusCallbackUrl: string;
  /** How long one request may take before it counts as failed (and is retried). */
  timeoutMs?: number;
}

/**
 * An error answer of the provider. `permanent` for a refusal of the message a retry cannot change
 * (bad number, unsubscribed recipient), so the outbox stops trying at once.
 */
export class SmsProviderError extends Error {
  override name = 'SmsProviderError';
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly code: number | null,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Twilio's error for a recipient who texted STOP: the portal records the opt-out too. */
export const TWILIO_UNSUBSCRIBED_RECIPIENT = 21610;

/**
 * Twilio's Messages API: one form-encoded POST per message to
 * `/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth with the account SID and auth
 * token, asking for delivery states at the status webhook. Answers the message's sid and status.
 */
export class TwilioSmsTransport implements SmsTransport {
  constructor(private readonly settings: TwilioSettings) {}

  async send(message: SmsMessage): Promise<SmsSendResult> {
    const { apiUrl, accountSid, authToken, from, statusCallbackUrl } = this.settings;
    const form = new URLSearchParams({ To: toE164(message.to), Body: message.text, StatusCallback: statusCallbackUrl });
    if (from.startsWith('MG')) form.set('MessagingServiceSid', from);
    else form.set('From', from);
    const url = `${apiUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(this.settings.timeoutMs ?? 15_000),
    });
    const body = (await response.json().catch(() => ({}))) as { sid?: unknown; status?: unknown; code?: unknown; message?: unknown };
    if (!response.ok) {
      const code = typeof body.code === 'number' ? body.code : null;
      // The provider's message names the error, never the recipient (Twilio's texts quote the number: cut it out).
      const text = typeof body.message === 'string' ? body.message.replace(/\+?\d[\d\s().-]{6,}\d/g, '<number>') : response.statusText;
      // A refusal of this message (bad number, unsubscribed recipient) is final; the portal's own
      // credentials refused, a timeout or a rate limit are not, and are tried again with back-off.
      const permanent = response.status >= 400 && response.status < 500 && ![401, 403, 408, 429].includes(response.status);
      throw new SmsProviderError(`SMS provider answered ${response.status}${code ? ` (code ${code})` : ''}: ${text}`, response.status, code, permanent);
    }
    if (typeof body.sid !== 'string') throw new SmsProviderError('SMS provider answered without a message sid', response.status, null, false);
    return { providerMessageId: body.sid, status: typeof body.status === 'string' ? body.status : 'queued' };
  }
}

/** Phone numbers on file are as people typed them; ten digits are a North American number. */
export function toE164(phone: string): string {
  if (phone.trim().startsWith('+')) return `+${phone.replace(/\D/g, '')}`;
  const digits = phone.replace(/\D/g, '');
  return digits.length === 10 ? `+1${digits}` : `+${digits}`;
}

/**
 * Twilio's request signature: HMAC-SHA1 with the auth token over the full URL Twilio called,
 * followed by each POST parameter's name and value, sorted by name; base64.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

export function isValidTwilioSignature(authToken: string, url: string, params: Record<string, string>, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
