import { sql } from 'kysely';
import { phoneKey, SMS_FAILED_STATUSES, smsKeyword, type SmsDeliveryStatus, type SmsKeyword } from '../../domain';
import type { Db } from '../../infra/db/database';
import { setOptedOut } from '../../infra/notifications/sms-opt-outs';
import { pickLanguage, smsReplyText } from '../../infra/notifications/templates';
import { TWILIO_UNSUBSCRIBED_RECIPIENT } from '../../infra/notifications/twilio';
import { confirmBySms, endTextAlerts } from './listing-alerts';
import { confirmWaitlistByText, isYes, waitlistKeptText } from './waitlist-sms';

// Callbacks may arrive out of order: a later state never gives way to an earlier one.
const RANK: Partial<Record<SmsDeliveryStatus, number>> = { accepted: 0, scheduled: 0, queued: 1, sending: 2, sent: 3, delivered: 4, read: 4, undelivered: 4, failed: 4, canceled: 4 };

/**
 * A delivery state the provider reported for one of the portal's texts. `undelivered` and `failed`
 * mark the row as never arriving (the manager sees it on the case); the provider's error for a
 * recipient who unsubscribed records the opt-out too. False when no row has that message id.
 */
export async function recordDeliveryStatus(db: Db, messageId: string, status: SmsDeliveryStatus, errorCode: string | null): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('notification_outbox').select(['id', 'delivery_status', 'to_address']).where('provider_message_id', '=', messageId).forUpdate().executeTakeFirst();
    if (!row) return false;
    const current = RANK[(row.delivery_status ?? 'queued') as SmsDeliveryStatus] ?? 0;
    if ((RANK[status] ?? 0) < current) return true;
    const failed = SMS_FAILED_STATUSES.includes(status);
    const optedOut = failed && errorCode === String(TWILIO_UNSUBSCRIBED_RECIPIENT);
    if (optedOut) await setOptedOut(trx, row.to_address, true);
    await trx
      .updateTable('notification_outbox')
      .set({
        delivery_status: status,
        ...(failed
          ? { undelivered_reason: optedOut ? ('opted_out' as const) : status === 'failed' ? ('failed' as const) : ('undelivered' as const), last_error: `the provider reported ${status}${errorCode ? ` (error ${errorCode})` : ''}` }
          : {}),
      })
      .where('id', '=', row.id)
      .execute();
    return true;
  });
}

/**
 * What a YES from a number may answer, in order: each handler acts when the number has something
 * waiting for a YES of its kind and says so; the first that acts answers the YES. Another kind
 * (a waitlist's "keep my place") adds its handler here.
 */
export const YES_HANDLERS: readonly ((db: Db, from: string) => Promise<boolean>)[] = [
  // A signed-out visitor's listing alert waiting for its confirmation.
  confirmBySms,
];

/**
 * A text someone sent to the portal's number: STOP (and its synonyms) opts the number out of every
 * text, START opts it in again, HELP says what the texts are. Answers the reply, in the language of
 * the account with that number (English for a number the portal does not know).
 */
export async function answerInboundText(db: Db, from: string, body: string): Promise<{ keyword: SmsKeyword | null; text: string }> {
  const keyword = smsKeyword(body);
  // A YES also answers the sender's open waitlist check-ins.
  const kept = isYes(body) ? await confirmWaitlistByText(db, from) : 0;
  if (keyword === 'stop') {
    await setOptedOut(db, from, true);
    // A number that says STOP gets no listing alerts again, even after START.
    await endTextAlerts(db, from);
  }
  if (keyword === 'start') await setOptedOut(db, from, false);
  // YES is START to the provider (it opts the number in again), and may also answer a question.
  if (keyword === 'start' && /^\s*yes\b/i.test(body)) {
    for (const handle of YES_HANDLERS) if (await handle(db, from)) break;
  }
  const key = phoneKey(from);
  const owners = await db
    .selectFrom('users')
    .select('preferred_language')
    .distinct()
    .where(sql<boolean>`(case when length(regexp_replace(coalesce(phone_number, ''), '\\D', '', 'g')) = 10 then '1' else '' end) || regexp_replace(coalesce(phone_number, ''), '\\D', '', 'g') = ${key}`)
    .limit(2)
    .execute();
  // Accounts sharing the number in different languages: English, the portal's default.
  const language = owners.length === 1 ? owners[0]!.preferred_language : 'en';
  return { keyword, text: kept > 0 ? waitlistKeptText(pickLanguage(language)) : smsReplyText(keyword, pickLanguage(language)) };
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** TwiML: the provider sends the `<Message>` back to the person who texted. */
export function smsReply(text: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${escapeXml(text)}</Message></Response>`;
}
