import { sql } from 'kysely';
import { formatLogNumber, type FreezeOutcome, type LotteryGroup } from '../../../domain';
import { listHash } from '../../lottery/draw';
import { matchKey } from '../../paper/match-key';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../temporal/ids';
import type { Db } from '../database';
import { declaredIncomeColumns } from './declared-income';

/** Statuses of an application that is in the list the lottery freezes and draws. */
export const LISTED_STATUSES = ['in_lottery', 'waitlisted'] as const;

const isoDate = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)).slice(0, 10);

/** The match key of a household: its head's name, date of birth and last 4 of an identifier. */
export async function householdMatchKey(db: Db, householdId: string): Promise<string | null> {
  const head = await db
    .selectFrom('household_members')
    .select(['full_name', 'date_of_birth', 'ssn_last4', 'itin_last4', 'alien_number_last4'])
    .where('household_id', '=', householdId)
    .orderBy('head_of_household', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
  if (!head) return null;
  return matchKey({ fullName: head.full_name, dateOfBirth: isoDate(head.date_of_birth), identifierLast4: head.ssn_last4 ?? head.itin_last4 ?? head.alien_number_last4 ?? '' });
}

/**
 * Records an application's match key and a pair with every other listed application of the same
 * opportunity carrying the same key (the manager decides which stands). Idempotent.
 */
export async function recordMatchKey(db: Db, input: { applicationId: string; opportunityId: string; householdId: string }): Promise<{ pairs: number }> {
  const key = await householdMatchKey(db, input.householdId);
  if (!key) return { pairs: 0 };
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('application_match_keys')
      .values({ application_id: input.applicationId, opportunity_id: input.opportunityId, match_key: key })
      .onConflict((oc) => oc.column('application_id').doUpdateSet({ match_key: key }))
      .execute();
    const others = await trx
      .selectFrom('application_match_keys as k')
      .innerJoin('applications as a', 'a.id', 'k.application_id')
      .select('a.id')
      .where('k.opportunity_id', '=', input.opportunityId)
      .where('k.match_key', '=', key)
      .where('a.id', '!=', input.applicationId)
      .where('a.status', 'in', LISTED_STATUSES)
      .execute();
    if (others.length === 0) return { pairs: 0 };
    await trx
      .insertInto('lottery_duplicate_pairs')
      .values(
        others.map((o) => {
          const [first, second] = [o.id, input.applicationId].sort();
          return { opportunity_id: input.opportunityId, first_application_id: first!, second_application_id: second! };
        }),
      )
      .onConflict((oc) => oc.columns(['first_application_id', 'second_application_id']).doNothing())
      .execute();
    return { pairs: others.length };
  });
}

/** Undecided pairs of an opportunity whose applications are both still listed, by log numbers ("LU-000001 / LU-000002"), oldest first. */
export async function undecidedPairs(db: Db, opportunityId: string, limit = 20): Promise<string[]> {
  const rows = await db
    .selectFrom('lottery_duplicate_pairs as p')
    .innerJoin('applications as a', 'a.id', 'p.first_application_id')
    .innerJoin('applications as b', 'b.id', 'p.second_application_id')
    .select(['a.log_number as first', 'b.log_number as second', 'p.first_application_id', 'p.second_application_id'])
    .where('p.opportunity_id', '=', opportunityId)
    .where('p.decided_at', 'is', null)
    // A pair one of whose applications left the list otherwise (withdrawn by its household) has nothing to decide.
    .where('a.status', 'in', LISTED_STATUSES)
    .where('b.status', 'in', LISTED_STATUSES)
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(limit)
    .execute();
  return rows.map((r) => `${r.first ?? r.first_application_id} / ${r.second ?? r.second_application_id}`);
}

/** The list as the draw will read it: every listed application, its log number and groups. */
export async function listedEntries(db: Db, opportunityId: string): Promise<{ logNumber: string; groups: string[] }[]> {
  const rows = await db.selectFrom('applications').select(['id', 'log_number', 'lottery_groups']).where('opportunity_id', '=', opportunityId).where('status', 'in', LISTED_STATUSES).execute();
  return rows.map((r) => ({ logNumber: r.log_number ?? r.id, groups: r.lottery_groups }));
}

/**
 * Freezes the list: refuses while a duplicate pair is undecided (naming the pairs), else records
 * its hash (the draw's list hash rule) and size, once: a second freeze answers the first.
 */
export async function freezeList(db: Db, opportunityId: string): Promise<FreezeOutcome> {
  const stored = await db.selectFrom('opportunity_lotteries').select(['frozen_list_hash', 'frozen_entries', 'frozen_at']).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
  if (stored.frozen_list_hash && stored.frozen_at) return { frozen: { listHash: stored.frozen_list_hash, entries: stored.frozen_entries ?? 0, frozenAt: stored.frozen_at.toISOString() } };
  const pairs = await undecidedPairs(db, opportunityId);
  if (pairs.length > 0) return { undecidedPairs: pairs };
  const entries = await listedEntries(db, opportunityId);
  const frozenAt = new Date();
  const hash = listHash(entries);
  await db
    .updateTable('opportunity_lotteries')
    .set({ frozen_list_hash: hash, frozen_entries: entries.length, frozen_at: frozenAt })
    .where('opportunity_id', '=', opportunityId)
    .where('frozen_list_hash', 'is', null)
    .execute();
  return freezeList(db, opportunityId);
}

/** Whether the list still hashes to what was frozen (null: nothing frozen). */
export async function listUnchangedSinceFreeze(db: Db, opportunityId: string): Promise<boolean | null> {
  const row = await db.selectFrom('opportunity_lotteries').select('frozen_list_hash').where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
  if (!row.frozen_list_hash) return null;
  return listHash(await listedEntries(db, opportunityId)) === row.frozen_list_hash;
}

export interface AdmitPaperInput {
  opportunityId: string;
  householdId: string;
  postmarkDate: string;
  householdSize: number;
  householdIncome: number;
  formDocumentId: string;
  enteredBy: string;
  groups: LotteryGroup[];
}

/**
 * Writes a paper application exactly as an online lottery application (in lottery, a log number,
 * the household's groups), with its channel and postmark kept beside; then its match key. Idempotent.
 */
export async function admitPaperApplication(db: Db, input: AdmitPaperInput): Promise<{ applicationId: string; logNumber: string }> {
  const applicationId = leaseUpApplicationId(input.opportunityId, input.householdId);
  const household = await db.selectFrom('households').select('head_user_id').where('id', '=', input.householdId).executeTakeFirstOrThrow();
  const opportunity = await db.selectFrom('opportunities').select('organization_id').where('id', '=', input.opportunityId).executeTakeFirstOrThrow();
  const logNumber = await db.transaction().execute(async (trx) => {
    await trx.insertInto('application_log_numbers').values({ application_id: applicationId }).onConflict((oc) => oc.doNothing()).execute();
    const log = await trx.selectFrom('application_log_numbers').select('number').where('application_id', '=', applicationId).executeTakeFirstOrThrow();
    const now = new Date();
    await trx
      .insertInto('applications')
      .values({
        id: applicationId,
        workflow_id: leaseUpWorkflowId(applicationId),
        household_id: input.householdId,
        opportunity_id: input.opportunityId,
        organization_id: opportunity.organization_id,
        applicant_user_id: household.head_user_id,
        log_number: formatLogNumber(log.number),
        status: 'in_lottery',
        current_step: 'submitted',
        pending_tasks: '[]',
        household_size: input.householdSize,
        ...declaredIncomeColumns(input.householdIncome),
        lottery_groups: JSON.stringify(input.groups),
        applied_at: now,
        state_updated_at: now,
        state_version: 0,
        channel: 'paper',
        postmark_date: input.postmarkDate,
        paper_form_document_id: input.formDocumentId,
        entered_by: input.enteredBy,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return formatLogNumber(log.number);
  });
  await recordMatchKey(db, { applicationId, opportunityId: input.opportunityId, householdId: input.householdId });
  return { applicationId, logNumber };
}

/**
 * The manager's decision on a pair: which application stands and why (kept with who and when);
 * the other is withdrawn. Answers the withdrawn application, or null when the pair was already decided.
 */
export async function decideDuplicate(db: Db, input: { pairId: string; keep: string; reason: string; decidedBy: string }): Promise<{ withdrawn: string } | null> {
  return db.transaction().execute(async (trx) => {
    const pair = await trx.selectFrom('lottery_duplicate_pairs').selectAll().where('id', '=', input.pairId).forUpdate().executeTakeFirst();
    if (!pair || pair.decided_at || ![pair.first_application_id, pair.second_application_id].includes(input.keep)) return null;
    const withdrawn = pair.first_application_id === input.keep ? pair.second_application_id : pair.first_application_id;
    await trx
      .updateTable('lottery_duplicate_pairs')
      .set({ kept_application_id: input.keep, reason: input.reason, decided_by: input.decidedBy, decided_at: new Date() })
      .where('id', '=', input.pairId)
      .execute();
    await trx.updateTable('applications').set({ status: 'withdrawn' }).where('id', '=', withdrawn).where('status', 'in', LISTED_STATUSES).execute();
    // Other pairs of the withdrawn application have nothing left to decide.
    await trx
      .updateTable('lottery_duplicate_pairs')
      .set({
        kept_application_id: sql<string>`case when first_application_id = ${withdrawn}::uuid then second_application_id else first_application_id end`,
        reason: input.reason,
        decided_by: input.decidedBy,
        decided_at: new Date(),
      })
      .where('decided_at', 'is', null)
      .where((eb) => eb.or([eb('first_application_id', '=', withdrawn), eb('second_application_id', '=', withdrawn)]))
      .where('id', '!=', input.pairId)
      .execute();
    return { withdrawn };
  });
}
