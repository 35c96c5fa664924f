import { listFreezesAt, type InvitationLogPage, type LotteryPlace, type LotteryPublication, type LotteryRanksPage } from '../../domain';
import type { Db } from '../../infra/db/database';
import { readInvitationLog } from '../../infra/db/repositories/invitation-log';
import { verifyLottery } from '../../infra/lottery/verify';

/** The published row of a lottery opportunity; undefined unless the opportunity is published and selects by lottery. */
export async function findPublishedLottery(db: Db, opportunityId: string) {
  return db
    .selectFrom('opportunity_lotteries as l')
    .innerJoin('opportunities as o', 'o.id', 'l.opportunity_id')
    .select(['o.name', 'l.seed_hash', 'l.seed_revealed', 'l.public_value', 'l.algorithm', 'l.list_hash', 'l.result_hash', 'l.entries', 'l.units', 'l.set_asides', 'l.drawn_at', 'l.frozen_list_hash', 'l.frozen_entries', 'l.frozen_at', 'l.deadline', 'l.mail_grace_days', 'l.invitation_log_head', 'l.invitation_log_length'])
    .where('l.opportunity_id', '=', opportunityId)
    .where('o.published', '=', true)
    .where('o.selection', '=', 'lottery')
    .executeTakeFirst();
}
type PublishedLottery = NonNullable<Awaited<ReturnType<typeof findPublishedLottery>>>;

/**
 * Only what is published: before the draw the seed stays secret and only its hash shows; once the
 * list is frozen, its hash and size show too (the draw's list hash and count are the frozen ones).
 */
export function publication(opportunityId: string, row: PublishedLottery, verified: boolean | null): LotteryPublication {
  const drawn = row.drawn_at !== null;
  const frozen = row.frozen_list_hash && row.frozen_at ? { listHash: row.frozen_list_hash, entries: row.frozen_entries ?? 0, frozenAt: row.frozen_at.toISOString() } : null;
  return {
    opportunityId,
    opportunityName: row.name,
    drawn,
    seedHash: row.seed_hash,
    seed: drawn ? row.seed_revealed : null,
    publicValue: drawn ? row.public_value : null,
    algorithm: drawn ? row.algorithm : null,
    listHash: drawn ? row.list_hash : (frozen?.listHash ?? null),
    resultHash: drawn ? row.result_hash : null,
    entries: drawn ? row.entries : (frozen?.entries ?? null),
    units: row.units,
    setAsides: row.set_asides ?? [],
    drawnAt: row.drawn_at ? row.drawn_at.toISOString() : null,
    // A lottery drawn before freezes existed has no frozen list and never had a grace period.
    listFreezesAt: frozen || !drawn ? listFreezesAt(typeof row.deadline === 'string' ? row.deadline.slice(0, 10) : new Date(row.deadline).toISOString().slice(0, 10), row.mail_grace_days) : null,
    frozen,
    verified,
  };
}

/** One log number's place; the (opportunity_id, log_number) index finds it. */
export async function findPlace(db: Db, opportunityId: string, logNumber: string): Promise<LotteryPlace | null> {
  const row = await db
    .selectFrom('applications')
    .select(['log_number', 'lottery_rank', 'lottery_group_positions'])
    .where('opportunity_id', '=', opportunityId)
    .where('log_number', '=', logNumber)
    .where('lottery_rank', 'is not', null)
    .executeTakeFirst();
  if (!row || row.log_number === null || row.lottery_rank === null) return null;
  return { logNumber: row.log_number, rank: row.lottery_rank, groupPositions: row.lottery_group_positions ?? {} };
}

/** One page of the ranked list after a rank, by the (opportunity_id, lottery_rank, id) index. */
export async function listRanks(db: Db, opportunityId: string, after: number, limit: number): Promise<LotteryRanksPage> {
  const rows = await db
    .selectFrom('applications')
    .select(['log_number', 'lottery_rank'])
    .where('opportunity_id', '=', opportunityId)
    .where('lottery_rank', '>', after)
    .orderBy('lottery_rank')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const items = rows.slice(0, limit).map((r) => ({ logNumber: r.log_number ?? '', rank: r.lottery_rank! }));
  return { items, nextAfter: rows.length > limit ? (items.at(-1)?.rank ?? null) : null };
}

/**
 * One page of the invitation log after a line (seq), by its primary key, with the hash the chain
 * starts from and the published head: log numbers, ranks and reason codes only.
 */
export async function invitationLogPage(db: Db, row: PublishedLottery, opportunityId: string, after: number, limit: number): Promise<InvitationLogPage> {
  const lines = await readInvitationLog(db, opportunityId, after, limit + 1);
  const items = lines.slice(0, limit);
  return { genesis: row.result_hash ?? '', head: row.invitation_log_head, length: row.invitation_log_length, items, nextAfter: lines.length > limit ? (items.at(-1)?.seq ?? null) : null };
}

/**
 * Whether a drawn lottery verifies, computed once per published result hash and invitation log head
 * (a redraw or a new log line publishes a new one) and shared by concurrent requests. A later change to stored ranks is seen by
 * `npm run lottery:verify`, or here after a restart.
 */
export function createVerificationCache(db: Db, size = 500) {
  const cache = new Map<string, Promise<boolean>>();
  return (opportunityId: string, resultHash: string, logHead: string | null = null): Promise<boolean> => {
    const key = `${opportunityId}:${resultHash}:${logHead ?? ''}`;
    let verified = cache.get(key);
    if (!verified) {
      verified = verifyLottery(db, opportunityId).then((v) => v.matches);
      verified.catch(() => cache.delete(key));
      cache.set(key, verified);
      if (cache.size > size) cache.delete(cache.keys().next().value!);
    }
    return verified;
  };
}
