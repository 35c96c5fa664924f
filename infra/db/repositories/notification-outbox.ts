import type { CaseNotice } from '../../../domain';
import type { Db } from '../database';

export interface NotificationRequest {
  userId: string | null;
  channel: 'email' | 'sms';
  toAddress: string;
  template: string;
  language: string;
  params: Record<string, unknown>;
  /** Same key, same message: a second enqueue with it is a no-op (e.g. 'recert:{case}:notice-90'). */
  dedupeKey?: string;
}

/**
 * Puts a notification in the transactional outbox; the delivery worker sends it. Call it with the
 * transaction that makes the change the message is about, so both commit or neither does.
 * Returns false when a message with the same dedupe key was already queued.
 */
export async function enqueueNotification(db: Db, n: NotificationRequest): Promise<boolean> {
  const result = await db
    .insertInto('notification_outbox')
    .values({
      user_id: n.userId,
      channel: n.channel,
      to_address: n.toAddress,
      template: n.template,
      language: n.language,
      params: JSON.stringify(n.params),
      dedupe_key: n.dedupeKey ?? null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * The one notice sender of every case: the message goes to the person's email in their own
 * language through the outbox. Idempotent by the notice's dedupe key (a retried activity, or the
 * same reminder asked for twice, queues one message). False when the person no longer exists or
 * the message was already queued.
 */
export async function sendNotice(db: Db, notice: CaseNotice): Promise<{ queued: boolean }> {
  const user = await db.selectFrom('users').select(['email', 'preferred_language']).where('id', '=', notice.userId).executeTakeFirst();
  if (!user) return { queued: false };
  const queued = await enqueueNotification(db, {
    userId: notice.userId,
    channel: 'email',
    toAddress: user.email,
    template: notice.template,
    language: user.preferred_language,
    params: notice.params,
    dedupeKey: notice.dedupeKey,
  });
  return { queued };
}
