import { z } from 'zod';

/**
 * Text messages: how long one is on a phone, which keywords a person may text back, and what a
 * provider says happened to a message. Shared by the delivery worker, the webhooks and the tests.
 */

// The GSM 03.38 default alphabet; every other character makes the whole message UCS-2.
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
// The extension table: each costs two septets (an escape, then the character).
const GSM7_EXTENDED = '^{}\\[~]|€\f';

const BASIC = new Set(GSM7_BASIC);
const EXTENDED = new Set(GSM7_EXTENDED);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsLength {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2): what the network counts. */
  units: number;
  segments: number;
}

/** Most segments any text of the portal may take, in every language: longer texts cost more and arrive split. */
export const SMS_MAX_SEGMENTS = 2;

/**
 * The segments a text takes: GSM-7 160 septets alone, 153 each when concatenated; any character
 * outside GSM-7 (Chinese, Bengali, many accents) makes it UCS-2, 70 alone and 67 each concatenated.
 */
export function smsLength(text: string): SmsLength {
  const chars = [...text];
  if (chars.every((c) => BASIC.has(c) || EXTENDED.has(c))) {
    const units = chars.reduce((n, c) => n + (EXTENDED.has(c) ? 2 : 1), 0);
    return { encoding: 'GSM-7', units, segments: units === 0 ? 0 : units <= 160 ? 1 : Math.ceil(units / 153) };
  }
  // UCS-2 counts UTF-16 code units: a character outside the basic plane (an emoji) takes two.
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/** What a person texted back, by the carriers' usual keywords (one word, any case, trimmed). */
export type SmsKeyword = 'stop' | 'start' | 'help';

const KEYWORDS: Record<string, SmsKeyword> = {
  STOP: 'stop',
  STOPALL: 'stop',
  UNSUBSCRIBE: 'stop',
  CANCEL: 'stop',
  END: 'stop',
  QUIT: 'stop',
  START: 'start',
  UNSTOP: 'start',
  YES: 'start',
  HELP: 'help',
  INFO: 'help',
};

export function smsKeyword(body: string): SmsKeyword | null {
  const word = body.trim().replace(/[.!]+$/, '').toUpperCase();
  return KEYWORDS[word] ?? null;
}

/** A phone number as one key (digits only, so "+1 (212) 555-0142" and "12125550142" are one person). */
export function phoneKey(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  // A ten-digit North American number is the same number as its +1 form.
  return digits.length === 10 ? `1${digits}` : digits;
}

/** Delivery states a provider reports for a text (Twilio's names), after the portal handed it over. */
export const SmsDeliveryStatus = z.enum(['accepted', 'queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'receiving', 'received', 'read', 'canceled', 'scheduled']);
export type SmsDeliveryStatus = z.infer<typeof SmsDeliveryStatus>;
/** The states that mean the text will never reach the phone. */
export const SMS_FAILED_STATUSES: readonly SmsDeliveryStatus[] = ['undelivered', 'failed', 'canceled'];

/**
 * Why a notice reached nobody, as the manager reads it: every channel it went by failed
 * (`failed`: the sender gave up after its retries; `undelivered`: the phone network could not
 * deliver it; `opted_out`: the number texted STOP).
 */
export const UndeliveredReason = z.enum(['failed', 'undelivered', 'opted_out', 'bounced']);
export type UndeliveredReason = z.infer<typeof UndeliveredReason>;

/** One notice of a case that reached nobody: its kind (template), when, and why, per channel. */
export interface UndeliveredNotice {
  template: string;
  createdAt: string;
  channels: { channel: 'email' | 'sms'; reason: UndeliveredReason; detail: string | null }[];
}

/**
 * The case a notice is about, from its dedupe key (`<kind>:<case id>:...`, domain/case.ts
 * CaseNotice): `lease-up:<application id>`, `recert:<case id>`, `relocation:<id>`...
 */
export function noticeCaseKey(dedupeKey: string): string | null {
  const [kind, id] = dedupeKey.split(':');
  return kind && id ? `${kind}:${id}` : null;
}
