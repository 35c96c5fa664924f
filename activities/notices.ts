import type { CaseNotice } from '../domain';
import type { Db } from '../infra/db/database';
import { enqueueNotification } from './notifications';

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
