import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { Transports } from './config';
import { findTemplate, pickLanguage, type RenderContext } from './templates';
import { isOptedOut, setOptedOut } from './sms-opt-outs';
import { SmsProviderError, TWILIO_UNSUBSCRIBED_RECIPIENT } from './twilio';

/** Attempts before a message is marked failed; waits grow 30 s, 1 min, 2 min, 4 min... */
export const MAX_ATTEMPTS = 6;

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface DeliveryDeps {
  db: Db;
  transports: Transports;
  context: RenderContext;
  logger?: Logger;
}

/**
 * Sends the pending messages that are due, one transaction per message with the row locked
 * (`for update skip locked`), so several workers never send the same row twice. On success the row
 * is marked sent and its secret parameters (codes, link tokens) are wiped. Returns how many were sent.
 */
export async function deliverPending({ db, transports, context, logger }: DeliveryDeps, batch = 20): Promise<number> {
  let sent = 0;
  for (let i = 0; i < batch; i++) {
    const outcome = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('notification_outbox')
        .selectAll()
        .where('status', '=', 'pending')
        .where(sql<boolean>`next_attempt_at <= now()`)
        .orderBy('created_at')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!row) return 'empty' as const;
      const template = findTemplate(row.template);
      if (!template) {
        await trx.updateTable('notification_outbox').set({ status: 'failed', undelivered_reason: 'failed', last_error: `unknown template ${row.template}` }).where('id', '=', row.id).execute();
        logger?.error({ id: row.id, template: row.template }, 'notification template unknown');
        return 'failed' as const;
      }
      const kept = { ...row.params };
      for (const key of template.secretParams ?? []) delete kept[key];
      // A number that texted STOP gets nothing more; the row says so, for the manager's case view.
      if (row.channel === 'sms' && (await isOptedOut(trx, row.to_address))) {
        await trx
          .updateTable('notification_outbox')
          .set({ status: 'failed', undelivered_reason: 'opted_out', last_error: 'the number opted out of text messages (STOP)', params: JSON.stringify(kept) })
          .where('id', '=', row.id)
          .execute();
        logger?.info({ id: row.id, template: row.template }, 'text message not sent: the number opted out');
        return 'failed' as const;
      }
      try {
        const message = template.render(pickLanguage(row.language), row.params, { ...context, notificationId: row.id });
        let accepted: { providerMessageId: string; status: string } | void = undefined;
        if (row.channel === 'email') await transports.email.send({ to: row.to_address, subject: message.subject, text: message.text, ...(message.headers ? { headers: message.headers } : {}) });
        else accepted = await transports.sms.send({ to: row.to_address, text: message.sms });
        await trx
          .updateTable('notification_outbox')
          .set({
            status: 'sent',
            sent_at: new Date(),
            attempts: row.attempts + 1,
            last_error: null,
            params: JSON.stringify(kept),
            ...(accepted ? { provider_message_id: accepted.providerMessageId, delivery_status: accepted.status } : {}),
          })
          .where('id', '=', row.id)
          .execute();
        return 'sent' as const;
      } catch (error) {
        const attempts = row.attempts + 1;
        const reason = error instanceof Error ? error.message : String(error);
        const waitSeconds = 30 * 2 ** (attempts - 1);
        // A refusal no retry can change ends the row at once: a bad or unsubscribed number, or a
        // mail server's permanent (5xx) refusal of the recipient, a bounce.
        const optedOut = error instanceof SmsProviderError && error.code === TWILIO_UNSUBSCRIBED_RECIPIENT;
        const bounced = row.channel === 'email' && isPermanentSmtpRefusal(error);
        const permanent = (error instanceof SmsProviderError && error.permanent) || bounced;
        if (optedOut) await setOptedOut(trx, row.to_address, true);
        const final = permanent || attempts >= MAX_ATTEMPTS;
        await trx
          .updateTable('notification_outbox')
          .set({
            attempts,
            last_error: reason.slice(0, 500),
            status: final ? 'failed' : 'pending',
            ...(final ? { undelivered_reason: optedOut ? ('opted_out' as const) : bounced ? ('bounced' as const) : ('failed' as const), params: JSON.stringify(kept) } : {}),
            ...({ next_attempt_at: sql`now() + make_interval(secs => ${waitSeconds})` } as object),
          })
          .where('id', '=', row.id)
          .execute();
        // The address is personal data: the log names the row, not the recipient.
        logger?.warn({ id: row.id, template: row.template, channel: row.channel, attempts, reason }, 'notification delivery failed');
        return 'retry' as const;
      }
    });
    if (outcome === 'empty') break;
    if (outcome === 'sent') sent++;
  }
  return sent;
}

/** SMTP's 5xx answers refuse for good (no such mailbox, rejected); 4xx ones are worth another try. */
function isPermanentSmtpRefusal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The worker's delivery loop: polls the outbox every `intervalMs` until stopped. */
export function startDeliveryLoop(deps: DeliveryDeps, intervalMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = deliverPending(deps)
      .then(() => undefined)
      .catch((error: unknown) => deps.logger?.error({ err: error }, 'notification delivery loop error'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      deps.transports.email.close?.();
    },
  };
}
