import type { Db } from '../infra/db/database';

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
