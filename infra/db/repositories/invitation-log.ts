import { createHash } from 'node:crypto';
import { invitationLogHashInput, type InvitationLogEvent, type InvitationLogLine, type InvitationLogReason } from '../../../domain';
import type { Db } from '../database';

/** A line to append; `dedupeKey` names what it records, so recording it again (a retried activity) appends nothing. */
export interface InvitationLogEntry {
  applicationId: string;
  logNumber: string;
  rank: number;
  event: InvitationLogEvent;
  reason: InvitationLogReason;
  unitSizes?: string[];
  dedupeKey: string;
}

export const invitationLogHash = (previous: string, line: Omit<InvitationLogLine, 'hash'>): string =>
  createHash('sha256').update(invitationLogHashInput(previous, line), 'utf8').digest('hex');

/** The key of an invitation: a household is invited once (its lease-up workflow id is its application's). */
export const invitedKey = (applicationId: string) => `invited:${applicationId}`;
/** The key of a pass-over: once per household, reason and the state it was passed over in. */
export const passedOverKey = (applicationId: string, reason: InvitationLogReason, state = '') => `passed_over:${applicationId}:${reason}${state ? `:${state}` : ''}`;

/**
 * Appends lines to a lottery's invitation log, in the caller's transaction (the one making the change
 * the lines record), chained from the head published on the lottery row; the row is locked so lines
 * are numbered one after another. Entries already recorded (by key) are left out. Answers how many
 * were appended.
 */
export async function appendInvitationLog(trx: Db, opportunityId: string, entries: readonly InvitationLogEntry[], at = new Date()): Promise<number> {
  if (entries.length === 0) return 0;
  const lottery = await trx
    .selectFrom('opportunity_lotteries')
    .select(['result_hash', 'invitation_log_head', 'invitation_log_length'])
    .where('opportunity_id', '=', opportunityId)
    .forUpdate()
    .executeTakeFirst();
  // Only a drawn lottery invites; without its result hash there is nothing to chain from.
  if (!lottery?.result_hash) return 0;
  const keys = [...new Set(entries.map((e) => e.dedupeKey))];
  const known = new Set(
    (await trx.selectFrom('lottery_invitation_log').select('dedupe_key').where('opportunity_id', '=', opportunityId).where('dedupe_key', 'in', keys).execute()).map((r) => r.dedupe_key),
  );
  let head = lottery.invitation_log_head ?? lottery.result_hash;
  let seq = lottery.invitation_log_length;
  const iso = at.toISOString();
  const rows = [];
  for (const e of entries) {
    if (known.has(e.dedupeKey)) continue;
    known.add(e.dedupeKey);
    seq += 1;
    const line = { seq, logNumber: e.logNumber, rank: e.rank, event: e.event, reason: e.reason, unitSizes: e.unitSizes ?? [], at: iso };
    head = invitationLogHash(head, line);
    rows.push({
      opportunity_id: opportunityId,
      seq,
      application_id: e.applicationId,
      log_number: e.logNumber,
      rank: e.rank,
      event: e.event,
      reason: e.reason,
      unit_sizes: JSON.stringify(line.unitSizes),
      at: iso,
      dedupe_key: e.dedupeKey,
      hash: head,
    });
  }
  if (rows.length === 0) return 0;
  await trx.insertInto('lottery_invitation_log').values(rows).execute();
  await trx.updateTable('opportunity_lotteries').set({ invitation_log_head: head, invitation_log_length: seq }).where('opportunity_id', '=', opportunityId).execute();
  return rows.length;
}

/** Lines after `after` (a seq), in order, by the primary key. */
export async function readInvitationLog(db: Db, opportunityId: string, after: number, limit: number): Promise<InvitationLogLine[]> {
  const rows = await db
    .selectFrom('lottery_invitation_log')
    .select(['seq', 'log_number', 'rank', 'event', 'reason', 'unit_sizes', 'at', 'hash'])
    .where('opportunity_id', '=', opportunityId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: r.seq, logNumber: r.log_number, rank: r.rank, event: r.event, reason: r.reason, unitSizes: r.unit_sizes, at: r.at.toISOString(), hash: r.hash }));
}
