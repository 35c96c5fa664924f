import { noticeCaseKey, type CaseNotice, type UndeliveredNotice } from '../../../domain';
import { isOptedOut } from '../../notifications/sms-opt-outs';
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
  /** The case notice this row carries and the case it is about (see sendNotice). */
  noticeKey?: string;
  caseKey?: string | null;
}

/**
 * Puts a notification in the transactional outbox; the delivery worker sends it. Call it with the
 * transaction that makes the change the message is about, so both commit or neither does.
 * Returns false when a message with the same dedupe key was already queued.
 */
export async function enqueueNotification(db: Db, n: NotificationRequest): Promise<boolean> {
  return (await enqueueNotifications(db, [n])) > 0;
}

/**
 * `enqueueNotification` for many rows in one statement (a fan-out batch of listing alerts), with
 * the same rule: a row whose dedupe key was already queued is left out. Returns how many were queued.
 */
export async function enqueueNotifications(db: Db, list: NotificationRequest[]): Promise<number> {
  if (list.length === 0) return 0;
  const result = await db
    .insertInto('notification_outbox')
    .values(
      list.map((n) => ({
        user_id: n.userId,
        channel: n.channel,
        to_address: n.toAddress,
        template: n.template,
        language: n.language,
        params: JSON.stringify(n.params),
        dedupe_key: n.dedupeKey ?? null,
        notice_key: n.noticeKey ?? null,
        case_key: n.caseKey ?? null,
      })),
    )
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export type NoticeChannel = 'email' | 'sms' | 'print';

/**
 * The one notice sender of every case: the message goes by the channels the person chose in
 * Settings (email unless they turned it off, text messages when they turned them on and the
 * number has not texted STOP), in their own language, through the outbox. Someone with neither
 * gets it as a printed letter when `print` can queue one (their household and its address);
 * failing that, by email, the last way left to reach them.
 * Idempotent by the notice's dedupe key (a retried activity, or the same reminder asked for
 * twice, queues one message per channel). `queued` is false when the person no longer exists or
 * the notice was already queued.
 */
export async function sendNotice(db: Db, notice: CaseNotice, print?: (notice: CaseNotice, language: string) => Promise<{ id: string } | null>): Promise<{ queued: boolean; channels: NoticeChannel[] }> {
  const user = await db.selectFrom('users').select(['email', 'phone_number', 'preferred_language', 'notify_email', 'notify_sms']).where('id', '=', notice.userId).executeTakeFirst();
  if (!user) return { queued: false, channels: [] };
  const byEmail = user.notify_email && Boolean(user.email);
  const bySms = user.notify_sms && Boolean(user.phone_number) && !(await isOptedOut(db, user.phone_number));
  if (!byEmail && !bySms && print) {
    const letter = await print(notice, user.preferred_language);
    if (letter) return { queued: true, channels: ['print'] };
  }
  const common = { userId: notice.userId, template: notice.template, language: user.preferred_language, params: notice.params, noticeKey: notice.dedupeKey, caseKey: noticeCaseKey(notice.dedupeKey) };
  const channels: NoticeChannel[] = [];
  let queued = false;
  if (byEmail || !bySms) {
    // The email row's dedupe key is the notice's own, the text's adds `:sms`: each is queued once.
    queued = (await enqueueNotification(db, { ...common, channel: 'email', toAddress: user.email, dedupeKey: notice.dedupeKey })) || queued;
    channels.push('email');
  }
  if (bySms && user.phone_number) {
    queued = (await enqueueNotification(db, { ...common, channel: 'sms', toAddress: user.phone_number, dedupeKey: `${notice.dedupeKey}:sms` })) || queued;
    channels.push('sms');
  }
  return { queued, channels };
}

/**
 * The notices that reached nobody: every row of the notice (its email and its text) ended
 * undelivered. For one case (`caseKey`), or the latest across the portal for the operator.
 */
export async function undeliveredNotices(db: Db, filter: { caseKey?: string; limit?: number } = {}): Promise<(UndeliveredNotice & { caseKey: string | null })[]> {
  let query = db
    .selectFrom('notification_outbox')
    .select(['notice_key', 'case_key', 'template', 'channel', 'undelivered_reason', 'last_error', 'created_at'])
    .where('notice_key', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('notification_outbox as other')
            .select('other.id')
            .whereRef('other.notice_key', '=', 'notification_outbox.notice_key')
            .where('other.undelivered_reason', 'is', null),
        ),
      ),
    )
    .orderBy('created_at', 'desc')
    .limit((filter.limit ?? 50) * 2);
  query = filter.caseKey ? query.where('case_key', '=', filter.caseKey) : query.where('undelivered_reason', 'is not', null);
  const rows = await query.execute();
  const byNotice = new Map<string, UndeliveredNotice & { caseKey: string | null }>();
  for (const r of rows) {
    const key = r.notice_key!;
    const notice = byNotice.get(key) ?? { template: r.template, caseKey: r.case_key, createdAt: new Date(r.created_at).toISOString(), channels: [] };
    notice.channels.push({ channel: r.channel, reason: r.undelivered_reason ?? 'failed', detail: r.last_error });
    byNotice.set(key, notice);
  }
  return [...byNotice.values()].slice(0, filter.limit ?? 50);
}
