import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import { MESSAGES, invitationReasonOf, type FreezeOutcome, type PassOverReason, type LotteryDrawSummary, type LotteryView, type StartLeaseUpInput } from '../domain';
import type { BlobStore } from '../infra/blobs';
import { dataCipher } from '../infra/data-keys';
import type { Db } from '../infra/db/database';
import { admitPaperApplication, decideDuplicate, freezeList, listUnchangedSinceFreeze, type AdmitPaperInput } from '../infra/db/repositories/lottery-duplicates';
import { declaredIncomeOf } from '../infra/db/repositories/declared-income';
import { appendInvitationLog, invitedKey, passedOverKey, type InvitationLogEntry } from '../infra/db/repositories/invitation-log';
import { sendNotice } from '../infra/db/repositories/notification-outbox';
import { drawLottery as rankEntries } from '../infra/lottery/draw';
import { letterLanguage, queueMailedLetter, queueNoticeLetter } from '../infra/paper/mailed-letters';
import { leaseUpWorkflowId } from '../infra/temporal/ids';

/** Freezes the list at the end of the mail grace period, or names the undecided duplicate pairs that stop it. */
export function freezeLotteryList(db: Db, input: { opportunityId: string }): Promise<FreezeOutcome> {
  return freezeList(db, input.opportunityId);
}

export { admitPaperApplication, type AdmitPaperInput };

/**
 * The manager's decision on a duplicate pair; the withdrawn application's household is told: by
 * email, or, without a login, by a letter in its language queued for the office to mail.
 */
export async function resolveDuplicate(db: Db, blobs: BlobStore, input: { pairId: string; keep: string; reason: string; decidedBy: string }): Promise<{ withdrawn: string | null }> {
  const decided = await decideDuplicate(db, input);
  // Already decided by an earlier attempt: its letter is keyed by the pair, so it goes once.
  const pair = await db.selectFrom('lottery_duplicate_pairs').select(['first_application_id', 'second_application_id', 'kept_application_id']).where('id', '=', input.pairId).executeTakeFirst();
  if (!pair?.kept_application_id) return { withdrawn: null };
  const withdrawn = decided?.withdrawn ?? (pair.kept_application_id === pair.first_application_id ? pair.second_application_id : pair.first_application_id);
  const row = await db
    .selectFrom('applications as a')
    .innerJoin('households as h', 'h.id', 'a.household_id')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .select(['a.id', 'a.log_number', 'a.applicant_user_id', 'a.organization_id', 'a.household_id', 'h.login', 'h.language', 'h.mailing_address_sealed', 'o.name'])
    .where('a.id', '=', withdrawn)
    .executeTakeFirstOrThrow();
  const logNumber = row.log_number ?? row.id;
  const dedupeKey = `duplicate-withdrawn:${input.pairId}`;
  if (row.login === 'none') {
    await queueMailedLetter(db, blobs, {
      organizationId: row.organization_id,
      householdId: row.household_id,
      applicationId: row.id,
      letter: 'duplicate-withdrawn',
      language: letterLanguage(row.language),
      address: row.mailing_address_sealed ? (JSON.parse(dataCipher().decrypt(row.mailing_address_sealed)) as string[]) : [],
      opportunityName: row.name,
      logNumber,
      dedupeKey,
    });
  } else {
    // By the channels the household chose; with neither, the same letter as above, from the notice's text.
    await sendNotice(db, { userId: row.applicant_user_id, template: 'lottery-duplicate-withdrawn', params: { opportunityName: row.name, logNumber, applicationId: row.id }, dedupeKey }, (notice, language) =>
      queueNoticeLetter(db, blobs, notice, { anyLogin: true, language }),
    );
  }
  return { withdrawn };
}

/** Writes the lottery's view into its read model (version-guarded) and the deadline onto the opportunity. */
export async function projectLottery(db: Db, view: LotteryView): Promise<{ written: boolean }> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('opportunity_lotteries')
      .set({
        stage: view.stage,
        paused: view.paused,
        deadline: view.deadline,
        invited: view.invited,
        skipped: view.skipped,
        view: JSON.stringify(view),
        state_version: view.version,
        state_updated_at: view.updatedAt,
      })
      .where('opportunity_id', '=', view.opportunityId)
      .where('state_version', '<', view.version)
      .executeTakeFirst();
    const written = Number(result.numUpdatedRows) > 0;
    // The countdown and the apply check read the opportunity's own deadline.
    if (written) await trx.updateTable('opportunities').set({ lottery_end_date: view.deadline }).where('id', '=', view.opportunityId).execute();
    return { written };
  });
}

/**
 * Rows written per statement. Each statement joins its chunk to the table by hashing the whole
 * table once, so fewer, larger statements (4 for 100,000) save that work; 25,000 rows stay well
 * inside the pool's statement timeout.
 */
const CHUNK = 25_000;

/**
 * Connections writing the ranks at once, each its own range of ranks. Rewriting a wide row and all
 * its indexes is PostgreSQL's CPU work (about 90% of a draw at 100,000), so two writers use two cores.
 */
const WRITERS = 2;

/** The applications a draw ranks: those still 'in lottery', and those an interrupted attempt of the same draw already waitlisted. */
const RANKED_STATUSES = ['in_lottery', 'waitlisted'] as const;

/**
 * The draw, over PostgreSQL: freezes the list, reveals the committed seed, ranks with the published
 * algorithm, writes each rank and group position, then records the result. Idempotent: a lottery
 * already drawn answers its stored result, and an attempt cut off midway is safe to run again. The
 * list is frozen by the deadline (no application after it; none is invited before the result is
 * recorded), so every attempt of one draw ranks the same list the same way: the rows an earlier
 * attempt waitlisted are part of it and are written again with the same ranks. The ranks are written
 * by `WRITERS` connections at once; the result is recorded last, in its own transaction, and only
 * once (a concurrent attempt that loses answers the stored result).
 */
export async function drawLottery(db: Db, input: { opportunityId: string; publicValue: string }): Promise<LotteryDrawSummary> {
  const stored = (l: { result_hash: string | null; drawn_at: Date | null; algorithm: string | null; list_hash: string | null; entries: number }): LotteryDrawSummary | null =>
    l.result_hash && l.drawn_at && l.algorithm && l.list_hash
      ? { entries: l.entries, algorithm: l.algorithm, listHash: l.list_hash, resultHash: l.result_hash, drawnAt: l.drawn_at.toISOString() }
      : null;
  const lottery = await db.selectFrom('opportunity_lotteries').selectAll().where('opportunity_id', '=', input.opportunityId).executeTakeFirstOrThrow();
  const already = stored(lottery);
  if (already) return already;
  const rows = await db
    .selectFrom('applications')
    .select(['id', 'log_number', 'lottery_groups'])
    .where('opportunity_id', '=', input.opportunityId)
    .where('status', 'in', RANKED_STATUSES)
    .execute();
  // The list drawn is the list frozen and published: a change after the freeze is refused, not drawn.
  if ((await listUnchangedSinceFreeze(db, input.opportunityId)) === false) {
    throw ApplicationFailure.nonRetryable(MESSAGES.listChangedAfterFreeze, 'ListChangedAfterFreeze');
  }
  const seed = dataCipher().decrypt(lottery.seed_encrypted);
  const result = rankEntries({
    seed,
    publicValue: input.publicValue,
    entries: rows.map((r) => ({ logNumber: r.log_number ?? r.id, groups: r.lottery_groups })),
    setAsides: lottery.set_asides,
    units: lottery.units,
  });
  const idOf = new Map(rows.map((r) => [r.log_number ?? r.id, r.id]));
  const share = Math.ceil(result.ranked.length / WRITERS);
  await Promise.all(
    Array.from({ length: WRITERS }, (_, w) => result.ranked.slice(w * share, (w + 1) * share)).map((part) =>
      part.length === 0
        ? undefined
        : db.transaction().execute(async (trx) => {
            for (let i = 0; i < part.length; i += CHUNK) {
              const chunk = part.slice(i, i + CHUNK);
              // A household that withdrew meanwhile keeps 'withdrawn' (its place in the published order stays).
              await sql`
                update applications a set status = 'waitlisted', lottery_rank = r.rank, lottery_group_positions = r.positions::jsonb
                from unnest(${chunk.map((e) => idOf.get(e.logNumber)!)}::uuid[], ${chunk.map((e) => e.rank)}::int[], ${chunk.map((e) => JSON.stringify(e.groupPositions))}::text[])
                  as r(id, rank, positions)
                where a.id = r.id and a.status in ('in_lottery', 'waitlisted')`.execute(trx);
            }
          }),
    ),
  );
  return db.transaction().execute(async (trx) => {
    const now = await trx.selectFrom('opportunity_lotteries').selectAll().where('opportunity_id', '=', input.opportunityId).forUpdate().executeTakeFirstOrThrow();
    const won = stored(now);
    if (won) return won;
    const drawnAt = new Date();
    await trx
      .updateTable('opportunity_lotteries')
      .set({
        seed_revealed: seed,
        public_value: input.publicValue,
        algorithm: result.algorithm,
        list_hash: result.listHash,
        result_hash: result.resultHash,
        entries: result.ranked.length,
        drawn_at: drawnAt,
      })
      .where('opportunity_id', '=', input.opportunityId)
      .execute();
    return { entries: result.ranked.length, algorithm: result.algorithm, listHash: result.listHash, resultHash: result.resultHash, drawnAt: drawnAt.toISOString() };
  });
}

/** The most people a unit of each size may house (two per bedroom plus one; a studio two). */
export function fitsOccupancy(bedroomTypes: readonly string[], householdSize: number): boolean {
  if (bedroomTypes.length === 0) return true;
  return bedroomTypes.some((type) => {
    const bedrooms = /studio/i.test(type) ? 0 : Number(/(\d+)/.exec(type)?.[1] ?? (/one/i.test(type) ? 1 : /two/i.test(type) ? 2 : /three/i.test(type) ? 3 : 4));
    return householdSize <= Math.max(2, bedrooms * 2 + 1);
  });
}

export interface InvitationStart {
  workflowId: string;
  rank: number;
  input: StartLeaseUpInput;
}

/**
 * Why a ranked household not yet invited is passed over now, if it is, and the key that records it
 * once: once for good when it withdrew or no unit fits it (marked 'skipped', as the manager sees it),
 * once per state change while it is inactive or removed (it keeps its rank and is considered again
 * once restored), once per set of declined sizes when it declined every size the opportunity has.
 */
function passOverOf(
  r: { id: string; status: string; household_size: number; waitlist_state: string; waitlist_state_at: Date | null; declined_bedroom_types: string[] },
  bedroomTypes: readonly string[],
): { reason: PassOverReason; key: string; unitSizes?: string[]; skip?: true } | null {
  const stateAt = r.waitlist_state_at ? r.waitlist_state_at.toISOString() : '';
  if (r.status === 'withdrawn') return { reason: 'withdrawn', key: passedOverKey(r.id, 'withdrawn') };
  if (!fitsOccupancy(bedroomTypes, r.household_size)) return { reason: 'household_does_not_fit', key: passedOverKey(r.id, 'household_does_not_fit'), unitSizes: [...bedroomTypes], skip: true };
  if (r.waitlist_state === 'removed') return { reason: 'removed', key: passedOverKey(r.id, 'removed', stateAt) };
  if (r.waitlist_state === 'inactive') return { reason: 'inactive', key: passedOverKey(r.id, 'inactive', stateAt) };
  const declined = r.declined_bedroom_types ?? [];
  if (bedroomTypes.length > 0 && bedroomTypes.every((t) => declined.includes(t))) {
    return { reason: 'unit_size_declined', key: passedOverKey(r.id, 'unit_size_declined', [...declined].sort().join('|')), unitSizes: [...bedroomTypes] };
  }
  return null;
}

/** The opportunity's bedroom types, each once, in a stable order (the log records them). */
async function bedroomTypesOf(db: Db, opportunityId: string): Promise<string[]> {
  const rows = await db.selectFrom('units').select('bedroom_type').distinct().where('opportunity_id', '=', opportunityId).orderBy('bedroom_type').execute();
  return rows.map((u) => u.bedroom_type);
}

/**
 * The next households in rank order, as lease-up start inputs. Each higher-ranked household not
 * invited is passed over with its public reason in the invitation log (in the transaction that marks
 * it, for one no unit can house); see `passOverOf`.
 */
export async function nextInvitations(db: Db, input: { opportunityId: string; count: number }): Promise<{ invitations: InvitationStart[]; skipped: number }> {
  const opportunity = await db
    .selectFrom('opportunities')
    .select(['id', 'organization_id', 'offer_expiry_days', 'appeal_window_days', 'appeal_decision_business_days', 'additional_documents_days'])
    .where('id', '=', input.opportunityId)
    .executeTakeFirstOrThrow();
  const bedroomTypes = await bedroomTypesOf(db, input.opportunityId);
  const invitations: InvitationStart[] = [];
  let skipped = 0;
  let after = 0;
  while (invitations.length < input.count) {
    // Withdrawn households not invited are read too: they are passed over in the log.
    const rows = await db
      .selectFrom('applications')
      .select([
        'id', 'household_id', 'applicant_user_id', 'household_size', 'household_income', 'household_income_encrypted', 'log_number', 'lottery_rank', 'status',
        'waitlist_state', 'waitlist_state_at', 'declined_bedroom_types',
      ])
      .where('opportunity_id', '=', input.opportunityId)
      .where('lottery_rank', '>', after)
      .where('status', 'in', ['waitlisted', 'withdrawn'])
      .where('invited_at', 'is', null)
      .orderBy('lottery_rank')
      .limit(input.count - invitations.length)
      .execute();
    if (rows.length === 0) break;
    after = rows.at(-1)!.lottery_rank!;
    const passed = rows.map((r) => ({ r, pass: passOverOf(r, bedroomTypes) }));
    const misfits = passed.filter((p) => p.pass?.skip).map((p) => p.r.id);
    const entries: InvitationLogEntry[] = passed.flatMap(({ r, pass }) =>
      pass ? [{ applicationId: r.id, logNumber: r.log_number ?? r.id, rank: r.lottery_rank!, event: 'passed_over' as const, reason: pass.reason, unitSizes: pass.unitSizes, dedupeKey: pass.key }] : [],
    );
    if (entries.length > 0) {
      await db.transaction().execute(async (trx) => {
        if (misfits.length > 0) {
          const marked = await trx
            .updateTable('applications')
            .set({ status: 'skipped', lottery_skip_reason: `householdDoesNotFitUnits:${bedroomTypes.join('|')}` })
            .where('id', 'in', misfits)
            .where('status', '=', 'waitlisted')
            .executeTakeFirst();
          skipped += Number(marked.numUpdatedRows);
        }
        await appendInvitationLog(trx, input.opportunityId, entries);
      });
    }
    for (const { r, pass } of passed) {
      if (pass) continue;
      invitations.push({
        workflowId: leaseUpWorkflowId(r.id),
        rank: r.lottery_rank!,
        input: {
          applicationId: r.id,
          householdId: r.household_id,
          opportunityId: opportunity.id,
          organizationId: opportunity.organization_id,
          applicantUserId: r.applicant_user_id,
          householdSize: r.household_size,
          householdIncome: declaredIncomeOf(r),
          ...(r.log_number ? { logNumber: r.log_number } : {}),
          settings: {
            offerExpiryDays: opportunity.offer_expiry_days,
            appealWindowDays: opportunity.appeal_window_days,
            appealDecisionBusinessDays: opportunity.appeal_decision_business_days,
            additionalDocumentsDays: opportunity.additional_documents_days,
          },
        },
      });
    }
  }
  return { invitations, skipped };
}

/**
 * Marks invited households (their lease-up projection takes over the row), logs each invitation
 * with its public reason in the same transaction, and counts who is left to invite: active households
 * not declining every size (inactive and removed ones keep their rank but wait until restored).
 */
export async function markInvited(db: Db, input: { opportunityId: string; applicationIds: string[]; reasons?: Record<string, string> }): Promise<{ waitlist: number }> {
  if (input.applicationIds.length > 0) {
    await db.transaction().execute(async (trx) => {
      const now = new Date();
      await trx.updateTable('applications').set({ invited_at: now }).where('id', 'in', input.applicationIds).where('invited_at', 'is', null).execute();
      await trx
        .updateTable('applications')
        .set({ status: 'in_review', current_step: 'documentation_review' })
        .where('id', 'in', input.applicationIds)
        .where('status', '=', 'waitlisted')
        .where('state_version', '=', 0)
        .execute();
      const rows = await trx.selectFrom('applications').select(['id', 'log_number', 'lottery_rank']).where('id', 'in', input.applicationIds).where('lottery_rank', 'is not', null).orderBy('lottery_rank').execute();
      await appendInvitationLog(
        trx,
        input.opportunityId,
        rows.map((r) => ({ applicationId: r.id, logNumber: r.log_number ?? r.id, rank: r.lottery_rank!, event: 'invited', reason: invitationReasonOf(input.reasons?.[r.id]), dedupeKey: invitedKey(r.id) })),
        now,
      );
    });
  }
  const bedroomTypes = await bedroomTypesOf(db, input.opportunityId);
  const left = await db
    .selectFrom('applications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('opportunity_id', '=', input.opportunityId)
    .where('status', '=', 'waitlisted')
    .where('invited_at', 'is', null)
    .where('waitlist_state', '=', 'active')
    .$if(bedroomTypes.length > 0, (q) => q.where(sql<boolean>`not (declined_bedroom_types @> ${JSON.stringify(bedroomTypes)}::jsonb)`))
    .executeTakeFirstOrThrow();
  return { waitlist: Number(left.n) };
}
