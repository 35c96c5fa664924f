import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { CaseNotice } from '../../../domain/case';
import { DAY } from '../../../domain/time';
import { CHECK_IN_ANSWER_DAYS, type WaitlistState } from '../../../domain/waitlist';
import {
  canRestoreItself,
  checkInCycleDates,
  type CheckInChannel,
  type WaitlistChangeReason,
  type WaitlistRow,
  type WaitlistStanding,
} from '../../../domain/waitlist-check-ins';
import type { Db } from '../database';

/**
 * A waitlist's check-ins in PostgreSQL. The waitlist workflow (workflows/waitlist.ts) calls the
 * sweeps on its timers' days, a batch at a time in rank order; the API records the answers. Every
 * write is a guarded update that takes "now" from its caller (the workflow's clock for the sweeps),
 * so a sweep run twice, or an answer sent twice, changes nothing the second time.
 */

/** Sends one notice by the household's channels (a letter when it has none): the activities' sender, given the transaction. */
export type WaitlistNotify = (db: Db, notice: CaseNotice) => Promise<unknown>;

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new signed-out link for one application: only its SHA-256 is stored. */
async function issueLink(db: Db, applicationId: string, now: number, expiresAt: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insertInto('waitlist_links').values({ token_hash: hashToken(token), application_id: applicationId, issued_at: new Date(now), expires_at: new Date(expiresAt) }).execute();
  return token;
}

const linkPath = (token: string) => `/waitlist/check-in?token=${token}`;

/** What the workflow needs at each cycle's start: the setting, the draw, and whether the waitlist still runs. */
export async function waitlistSettings(db: Db, opportunityId: string): Promise<{ months: number; drawnAt: number | null; closed: boolean; waiting: number }> {
  const row = await db
    .selectFrom('opportunities as o')
    .leftJoin('opportunity_lotteries as l', 'l.opportunity_id', 'o.id')
    .select(['o.waitlist_check_in_months', 'l.drawn_at', 'l.stage'])
    .where('o.id', '=', opportunityId)
    .executeTakeFirst();
  if (!row) return { months: 6, drawnAt: null, closed: true, waiting: 0 };
  const waiting = await db
    .selectFrom('applications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('opportunity_id', '=', opportunityId)
    .where('status', '=', 'waitlisted')
    .where('lottery_rank', 'is not', null)
    .where('waitlist_state', '!=', 'removed')
    .executeTakeFirstOrThrow();
  return { months: row.waitlist_check_in_months, drawnAt: row.drawn_at ? new Date(row.drawn_at).getTime() : null, closed: row.stage === 'closed_out', waiting: Number(waiting.n) };
}

export interface SweepInput {
  opportunityId: string;
  cycle: number;
  /** The cycle's day of asking (ms): every date of the cycle follows from it and the setting. */
  askAt: number;
  now: number;
  afterRank: number;
  limit: number;
}
export interface SweepResult {
  /** The rank to continue after; null when the sweep is done. */
  next: number | null;
  count: number;
}

const page = (ranks: number[], limit: number, scanned: number): SweepResult => ({ next: scanned < limit ? null : Math.max(...ranks), count: ranks.length });

/** Asks every active waitlisted household of the page, once per cycle: a check-in row, a link, and the notice. */
export async function askCheckIns(db: Db, notify: WaitlistNotify, input: SweepInput): Promise<SweepResult> {
  const dates = checkInCycleDates(input.askAt, 1);
  const rows = await db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select(['a.id', 'a.lottery_rank', 'a.applicant_user_id', 'o.name'])
    .where('a.opportunity_id', '=', input.opportunityId)
    .where('a.waitlist_state', '=', 'active')
    .where('a.lottery_rank', '>', input.afterRank)
    .where('a.status', '=', 'waitlisted')
    .orderBy('a.lottery_rank')
    .limit(input.limit)
    .execute();
  return sweepPage(db, notify, input, rows, async (trx, row) => {
      const inserted = await trx
        .insertInto('waitlist_check_ins')
        .values({ application_id: row.id, opportunity_id: input.opportunityId, cycle: input.cycle, asked_at: new Date(input.askAt) })
        .onConflict((oc) => oc.columns(['application_id', 'cycle']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return null;
      await trx.updateTable('applications').set({ waitlist_next_check_in_at: new Date(dates.inactiveAt) }).where('id', '=', row.id).execute();
      const token = await issueLink(trx, row.id, input.now, dates.removeAt);
      return {
        userId: row.applicant_user_id,
        template: 'waitlist-check-in',
        params: { applicationId: row.id, opportunityName: row.name, answerBy: new Date(dates.inactiveAt).toISOString().slice(0, 10), path: linkPath(token) },
        dedupeKey: `waitlist:${row.id}:${input.cycle}:ask`,
      };
  });
}

/**
 * One page of a sweep in one transaction: each household's change, link and notice commit together,
 * so a retried page neither acts twice nor leaves a household changed without its notice. `act`
 * answers the notice of a household it changed, or null for one it left as it was.
 */
async function sweepPage<R extends { lottery_rank: number | null }>(
  db: Db,
  notify: WaitlistNotify,
  input: SweepInput,
  rows: R[],
  act: (trx: Db, row: R) => Promise<CaseNotice | null>,
): Promise<SweepResult> {
  let count = 0;
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      const notice = await act(trx, row);
      if (!notice) continue;
      await notify(trx, notice);
      count += 1;
    }
  });
  return { ...page(rows.map((r) => r.lottery_rank!), input.limit, rows.length), count };
}

/** The unanswered check-ins of the cycle, still active, in rank order after the cursor. */
const unanswered = (db: Db, input: SweepInput) =>
  db
    .selectFrom('waitlist_check_ins as c')
    .innerJoin('applications as a', 'a.id', 'c.application_id')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .where('c.opportunity_id', '=', input.opportunityId)
    .where('c.cycle', '=', input.cycle)
    .where('c.answered_at', 'is', null)
    .where('a.waitlist_state', '=', 'active')
    .where('a.status', '=', 'waitlisted')
    .where('a.lottery_rank', '>', input.afterRank)
    .orderBy('a.lottery_rank')
    .limit(input.limit);

/** Fourteen days after the question: one reminder to each household that has not answered, with a new link. */
export async function remindCheckIns(db: Db, notify: WaitlistNotify, input: SweepInput): Promise<SweepResult> {
  const dates = checkInCycleDates(input.askAt, 1);
  const rows = await unanswered(db, input).select(['c.id as checkInId', 'c.reminded_at', 'a.id', 'a.lottery_rank', 'a.applicant_user_id', 'o.name']).execute();
  return sweepPage(db, notify, input, rows, async (trx, row) => {
    if (row.reminded_at) return null;
    const marked = await trx.updateTable('waitlist_check_ins').set({ reminded_at: new Date(input.now) }).where('id', '=', row.checkInId).where('reminded_at', 'is', null).where('answered_at', 'is', null).executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) return null;
    const token = await issueLink(trx, row.id, input.now, dates.removeAt);
    return {
      userId: row.applicant_user_id,
      template: 'waitlist-check-in-reminder',
      params: { applicationId: row.id, opportunityName: row.name, answerBy: new Date(dates.inactiveAt).toISOString().slice(0, 10), path: linkPath(token) },
      dedupeKey: `waitlist:${row.id}:${input.cycle}:reminder`,
    };
  });
}

/** Thirty days after the question: a household that did not answer becomes inactive (rank kept), and is told. */
export async function deactivateUnanswered(db: Db, notify: WaitlistNotify, input: SweepInput): Promise<SweepResult> {
  const dates = checkInCycleDates(input.askAt, 1);
  const rows = await unanswered(db, input).select(['a.id', 'a.lottery_rank', 'a.applicant_user_id', 'o.name']).execute();
  return sweepPage(db, notify, input, rows, async (trx, row) => {
    if (!(await changeState(trx, row.id, ['active'], 'inactive', 'no_answer', input.now, {}))) return null;
    const token = await issueLink(trx, row.id, input.now, dates.removeAt);
    return {
      userId: row.applicant_user_id,
      template: 'waitlist-inactive',
      params: { applicationId: row.id, opportunityName: row.name, restoreBy: new Date(dates.removeAt).toISOString().slice(0, 10), path: linkPath(token) },
      dedupeKey: `waitlist:${row.id}:${input.cycle}:inactive`,
    };
  });
}

/** Thirty days after becoming inactive: a household that did not restore its place is removed, and is told. */
export async function removeUnrestored(db: Db, notify: WaitlistNotify, input: SweepInput): Promise<SweepResult> {
  const rows = await db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select(['a.id', 'a.lottery_rank', 'a.applicant_user_id', 'o.name', lastAskedAt])
    .where('a.opportunity_id', '=', input.opportunityId)
    .where('a.waitlist_state', '=', 'inactive')
    .where('a.lottery_rank', '>', input.afterRank)
    .orderBy('a.lottery_rank')
    .limit(input.limit)
    .execute();
  return sweepPage(db, notify, input, rows, async (trx, row) => {
    if (canRestoreItself('inactive', row.last_asked_at ? new Date(row.last_asked_at).getTime() : null, input.now)) return null;
    if (!(await changeState(trx, row.id, ['inactive'], 'removed', 'not_restored', input.now, {}))) return null;
    await trx.updateTable('applications').set({ waitlist_next_check_in_at: null }).where('id', '=', row.id).execute();
    return { userId: row.applicant_user_id, template: 'waitlist-removed', params: { applicationId: row.id, opportunityName: row.name }, dedupeKey: `waitlist:${row.id}:${input.cycle}:removed` };
  });
}

/** The day of the household's latest check-in (its restore deadline follows from it). */
const lastAskedAt = sql<Date | null>`(select c.asked_at from waitlist_check_ins c where c.application_id = a.id order by c.cycle desc limit 1)`.as('last_asked_at');

/** Moves a place from one of `from` to `to`, with its change row; false when it was not in `from`. */
async function changeState(db: Db, applicationId: string, from: WaitlistState[], to: WaitlistState, reason: WaitlistChangeReason, now: number, by: { userId?: string; note?: string }): Promise<boolean> {
  const result = await db
    .updateTable('applications')
    .set({ waitlist_state: to, waitlist_state_at: new Date(now), waitlist_state_reason: reason })
    .where('id', '=', applicationId)
    .where('waitlist_state', 'in', from)
    .where('lottery_rank', 'is not', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await db.insertInto('waitlist_changes').values({ application_id: applicationId, at: new Date(now), state: to, reason, note: by.note ?? null, by_user_id: by.userId ?? null }).execute();
  return true;
}

/** The household's latest check-in, with what the answer window and the next question are. */
async function latestCheckIn(db: Db, applicationId: string) {
  return db
    .selectFrom('waitlist_check_ins as c')
    .innerJoin('opportunities as o', 'o.id', 'c.opportunity_id')
    .select(['c.id', 'c.cycle', 'c.asked_at', 'c.answered_at', 'o.waitlist_check_in_months'])
    .where('c.application_id', '=', applicationId)
    .orderBy('c.cycle', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export type AnswerOutcome = 'confirmed' | 'already_confirmed' | 'inactive' | 'removed' | 'no_check_in';

/**
 * The household keeps its place: its open check-in (asked, unanswered, inside the 30 days) is
 * answered, and the next question is due with the next cycle.
 */
export async function confirmInterest(db: Db, input: { applicationId: string; now: number; channel: CheckInChannel }): Promise<AnswerOutcome> {
  return db.transaction().execute(async (trx) => {
    const app = await trx.selectFrom('applications').select(['waitlist_state', 'status', 'lottery_rank']).where('id', '=', input.applicationId).forUpdate().executeTakeFirst();
    if (!app || app.lottery_rank === null || app.status !== 'waitlisted') return 'no_check_in';
    if (app.waitlist_state !== 'active') return app.waitlist_state;
    const c = await latestCheckIn(trx, input.applicationId);
    if (!c) return 'no_check_in';
    if (c.answered_at) return 'already_confirmed';
    const dates = checkInCycleDates(new Date(c.asked_at).getTime(), c.waitlist_check_in_months);
    // After the answer window the sweep makes it inactive: the household restores its place instead.
    if (input.now >= dates.inactiveAt) return 'no_check_in';
    await trx.updateTable('waitlist_check_ins').set({ answered_at: new Date(input.now), answered_by: input.channel }).where('id', '=', c.id).where('answered_at', 'is', null).execute();
    await trx.updateTable('applications').set({ waitlist_confirmed_at: new Date(input.now), waitlist_next_check_in_at: new Date(dates.nextAskAt) }).where('id', '=', input.applicationId).execute();
    return 'confirmed';
  });
}

export type RestoreOutcome = 'restored' | 'not_restorable';

/**
 * An inactive household restores its place inside its 30 days; a manager may restore an inactive
 * or removed one at any time, with a reason. The open check-in counts as answered.
 */
export async function restorePlace(db: Db, input: { applicationId: string; now: number; by: { role: 'household' } | { role: 'manager'; userId: string; reason: string; letter?: boolean } }): Promise<RestoreOutcome> {
  return db.transaction().execute(async (trx) => {
    const app = await trx.selectFrom('applications').select(['waitlist_state', 'status', 'lottery_rank']).where('id', '=', input.applicationId).forUpdate().executeTakeFirst();
    if (!app || app.lottery_rank === null || app.status !== 'waitlisted') return 'not_restorable';
    const by = input.by;
    const latest = await latestCheckIn(trx, input.applicationId);
    if (by.role === 'household' && !canRestoreItself(app.waitlist_state, latest ? new Date(latest.asked_at).getTime() : null, input.now)) return 'not_restorable';
    if (app.waitlist_state === 'active') return 'not_restorable';
    const reason: WaitlistChangeReason = by.role === 'household' ? 'restored_by_household' : by.letter ? 'returned_letter' : 'restored_by_manager';
    const changed = await changeState(trx, input.applicationId, ['inactive', 'removed'], 'active', reason, input.now, by.role === 'manager' ? { userId: by.userId, note: by.reason } : {});
    if (!changed) return 'not_restorable';
    const c = latest;
    if (c && !c.answered_at) await trx.updateTable('waitlist_check_ins').set({ answered_at: new Date(input.now), answered_by: by.role === 'manager' && by.letter ? 'letter' : 'restore' }).where('id', '=', c.id).execute();
    const nextAsk = c ? checkInCycleDates(new Date(c.asked_at).getTime(), c.waitlist_check_in_months).nextAskAt : null;
    await trx.updateTable('applications').set({ waitlist_confirmed_at: new Date(input.now), waitlist_next_check_in_at: nextAsk ? new Date(nextAsk) : null }).where('id', '=', input.applicationId).execute();
    return 'restored';
  });
}

/** The office received the signed check-in letter: the open check-in is answered, or an inactive or removed place restored. */
export async function recordReturnedLetter(db: Db, input: { applicationId: string; now: number; managerId: string }): Promise<AnswerOutcome | RestoreOutcome> {
  const confirmed = await confirmInterest(db, { applicationId: input.applicationId, now: input.now, channel: 'letter' });
  if (confirmed !== 'inactive' && confirmed !== 'removed') return confirmed;
  return restorePlace(db, { applicationId: input.applicationId, now: input.now, by: { role: 'manager', userId: input.managerId, reason: 'letter returned', letter: true } });
}

/** The application a signed-out link acts on, while the link lives. */
export async function applicationOfLink(db: Db, token: string, now: number): Promise<string | null> {
  const row = await db.selectFrom('waitlist_links').select(['application_id', 'expires_at']).where('token_hash', '=', hashToken(token)).executeTakeFirst();
  return row && new Date(row.expires_at).getTime() > now ? row.application_id : null;
}

/**
 * A text "YES": every open check-in of the households whose head has this number is answered.
 * `phoneKey` is the number as digits (domain/sms.ts phoneKey), matched as the STOP handling matches it.
 */
export async function confirmByText(db: Db, phoneKey: string, now: number): Promise<number> {
  const rows = await db
    .selectFrom('waitlist_check_ins as c')
    .innerJoin('applications as a', 'a.id', 'c.application_id')
    .innerJoin('users as u', 'u.id', 'a.applicant_user_id')
    .select('a.id')
    .where(sql<boolean>`(case when length(regexp_replace(coalesce(u.phone_number, ''), '\\D', '', 'g')) = 10 then '1' else '' end) || regexp_replace(coalesce(u.phone_number, ''), '\\D', '', 'g') = ${phoneKey}`)
    .where('c.answered_at', 'is', null)
    .where('c.asked_at', '>', new Date(now - CHECK_IN_ANSWER_DAYS * DAY))
    .where('a.waitlist_state', '=', 'active')
    .execute();
  let confirmed = 0;
  for (const row of rows) if ((await confirmInterest(db, { applicationId: row.id, now, channel: 'sms' })) === 'confirmed') confirmed += 1;
  return confirmed;
}

export async function declineSizes(db: Db, applicationId: string, declined: string[]): Promise<void> {
  await db.updateTable('applications').set({ declined_bedroom_types: JSON.stringify([...new Set(declined)].sort()) }).where('id', '=', applicationId).execute();
}

/** The unit sizes of an opportunity (a household can only decline one of these). */
export async function bedroomTypesOf(db: Db, opportunityId: string): Promise<string[]> {
  const rows = await db.selectFrom('units').select('bedroom_type').distinct().where('opportunity_id', '=', opportunityId).execute();
  return rows.map((r) => r.bedroom_type).sort();
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** "Where I stand": every ranked application of the household's, with its position among active households now. */
export async function standings(db: Db, householdId: string, now: number): Promise<WaitlistStanding[]> {
  const rows = await db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select([
      'a.id',
      'a.opportunity_id',
      'o.name',
      'a.lottery_rank',
      'a.lottery_group_positions',
      'a.status',
      'a.waitlist_state',
      'a.waitlist_state_at',
      'a.waitlist_state_reason',
      'a.waitlist_confirmed_at',
      'a.waitlist_next_check_in_at',
      'a.declined_bedroom_types',
      lastAskedAt,
      sql<number>`(select count(*) from applications b where b.opportunity_id = a.opportunity_id and b.waitlist_state = 'active' and b.status = 'waitlisted' and b.lottery_rank is not null and b.lottery_rank < a.lottery_rank)::int`.as('ahead'),
      sql<number>`(select count(*) from applications b where b.opportunity_id = a.opportunity_id and b.waitlist_state = 'active' and b.status = 'waitlisted' and b.lottery_rank is not null)::int`.as('active_total'),
      sql<boolean>`exists (select 1 from waitlist_check_ins c where c.application_id = a.id and c.answered_at is null and c.asked_at > ${new Date(now - CHECK_IN_ANSWER_DAYS * DAY)})`.as('open'),
    ])
    .where('a.household_id', '=', householdId)
    .where('a.lottery_rank', 'is not', null)
    .where('a.status', '=', 'waitlisted')
    .orderBy('o.name')
    .execute();
  const out: WaitlistStanding[] = [];
  for (const r of rows) {
    const askedAt = r.last_asked_at ? new Date(r.last_asked_at).getTime() : null;
    const active = r.waitlist_state === 'active';
    const restorable = canRestoreItself(r.waitlist_state, askedAt, now);
    out.push({
      applicationId: r.id,
      opportunityId: r.opportunity_id,
      opportunityName: r.name,
      rank: r.lottery_rank!,
      groupPositions: (r.lottery_group_positions ?? {}) as Record<string, number>,
      activePosition: active ? r.ahead + 1 : null,
      activeTotal: r.active_total,
      state: r.waitlist_state,
      stateAt: iso(r.waitlist_state_at),
      stateReason: r.waitlist_state_reason,
      lastConfirmedAt: iso(r.waitlist_confirmed_at),
      nextDueAt: active ? iso(r.waitlist_next_check_in_at) : null,
      checkInOpen: active && r.open,
      restoreUntil: restorable && askedAt !== null ? new Date(checkInCycleDates(askedAt, 1).removeAt).toISOString() : null,
      declinedBedroomTypes: r.declined_bedroom_types,
      bedroomTypes: await bedroomTypesOf(db, r.opportunity_id),
      next: r.waitlist_state === 'removed' ? 'removed' : !active ? (restorable ? 'restore_now' : 'removed') : r.open ? 'confirm_now' : 'wait_for_check_in',
    });
  }
  return out;
}

/** The manager's view of one waitlist, one state at a time in rank order, paged by rank. */
export async function waitlistPage(db: Db, input: { opportunityId: string; state: WaitlistState; after: number; limit: number; now: number }): Promise<{ rows: WaitlistRow[]; next: number | null }> {
  const rows = await db
    .selectFrom('applications as a')
    .select([
      'a.id',
      'a.log_number',
      'a.lottery_rank',
      'a.waitlist_state',
      'a.waitlist_state_at',
      'a.waitlist_state_reason',
      'a.waitlist_confirmed_at',
      'a.waitlist_next_check_in_at',
      'a.declined_bedroom_types',
      sql<boolean>`exists (select 1 from waitlist_check_ins c where c.application_id = a.id and c.answered_at is null and c.asked_at > ${new Date(input.now - CHECK_IN_ANSWER_DAYS * DAY)})`.as('open'),
    ])
    .where('a.opportunity_id', '=', input.opportunityId)
    .where('a.waitlist_state', '=', input.state)
    .where('a.lottery_rank', 'is not', null)
    .where('a.lottery_rank', '>', input.after)
    .where('a.status', '=', 'waitlisted')
    .orderBy('a.lottery_rank')
    .limit(input.limit + 1)
    .execute();
  const shown = rows.slice(0, input.limit);
  const changes = shown.length
    ? await db.selectFrom('waitlist_changes').select(['application_id', 'at', 'state', 'reason', 'note']).where('application_id', 'in', shown.map((r) => r.id)).orderBy('at').orderBy('id').execute()
    : [];
  return {
    rows: shown.map((r) => ({
      applicationId: r.id,
      logNumber: r.log_number,
      rank: r.lottery_rank!,
      state: r.waitlist_state,
      stateAt: iso(r.waitlist_state_at),
      stateReason: r.waitlist_state_reason,
      lastConfirmedAt: iso(r.waitlist_confirmed_at),
      nextDueAt: iso(r.waitlist_next_check_in_at),
      checkInOpen: r.waitlist_state === 'active' && r.open,
      declinedBedroomTypes: r.declined_bedroom_types,
      changes: changes.filter((c) => c.application_id === r.id).map((c) => ({ at: new Date(c.at).toISOString(), state: c.state, reason: c.reason, note: c.note })),
    })),
    next: rows.length > input.limit ? shown[shown.length - 1]!.lottery_rank : null,
  };
}

export async function setCheckInMonths(db: Db, opportunityId: string, months: number): Promise<void> {
  await db.updateTable('opportunities').set({ waitlist_check_in_months: months }).where('id', '=', opportunityId).execute();
}
