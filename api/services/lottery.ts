import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { sql } from 'kysely';
import {
  applicationsCloseAt,
  initialLeaseUpState,
  leaseUpView,
  lotteryWorkflowId,
  type ApplicationStatus,
  type LeaseUpView,
  type LotteryGroup,
  type LotteryInputs,
  type LotteryManagerAction,
  type LotteryView,
  type StartLotteryInput,
} from '../../domain';
import { dataCipher } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { newSeed, seedHash } from '../../infra/lottery/draw';
import { conflict, forbidden, notFound, unprocessable } from '../errors';
import { listUnchangedSinceFreeze } from '../../infra/db/repositories/lottery-duplicates';
import { declaredIncomeOf } from '../../infra/db/repositories/declared-income';
import type { Session } from '../session';
import { LOTTERY_KIND } from './case-kinds';
import { actOnCase, onCaseOf, readView } from './cases';

export interface LotteryDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/** Statuses of a lottery application that has no lease-up case (yet, or ever). */
export const WAITING_STATUSES: readonly ApplicationStatus[] = ['in_lottery', 'waitlisted', 'skipped'];

/**
 * Opens the lottery of a lottery opportunity when it is published: commits to a fresh secret seed
 * (encrypted at rest, its SHA-256 public from now on), writes the read model, then starts the
 * workflow that runs it. Publishing again is a no-op: the workflow ID admits one lottery per opportunity.
 */
export async function openLottery(deps: LotteryDeps, opportunityId: string): Promise<void> {
  const opportunity = await deps.db
    .selectFrom('opportunities')
    .select(['id', 'organization_id', 'lottery_end_date', 'lottery_set_asides', 'lottery_community_board', 'mail_grace_days', (eb) => eb.selectFrom('units').select((u) => u.fn.countAll<string>().as('n')).whereRef('units.opportunity_id', '=', 'opportunities.id').as('units')])
    .where('id', '=', opportunityId)
    .executeTakeFirstOrThrow();
  const seed = newSeed();
  const deadline = new Date(opportunity.lottery_end_date).toISOString().slice(0, 10);
  const input: StartLotteryInput = {
    opportunityId,
    organizationId: opportunity.organization_id,
    deadline,
    units: Number(opportunity.units ?? 0),
    seedHash: seedHash(seed),
    mailGraceDays: opportunity.mail_grace_days,
  };
  await deps.db
    .insertInto('opportunity_lotteries')
    .values({
      opportunity_id: opportunityId,
      workflow_id: lotteryWorkflowId(opportunityId),
      organization_id: input.organizationId,
      stage: 'accepting',
      deadline,
      units: input.units,
      seed_encrypted: dataCipher().encrypt(seed),
      seed_hash: input.seedHash,
      set_asides: JSON.stringify(opportunity.lottery_set_asides),
      community_board: opportunity.lottery_community_board,
      mail_grace_days: opportunity.mail_grace_days,
      state_version: 0,
      state_updated_at: new Date(),
    })
    .onConflict((oc) => oc.column('opportunity_id').doNothing())
    .execute();
  // A second publish keeps the first commitment: the workflow starts with what the row holds.
  const row = await deps.db.selectFrom('opportunity_lotteries').select(['seed_hash', 'units', 'set_asides', 'mail_grace_days']).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
  try {
    await deps.temporal.workflow.start('lottery', {
      workflowId: lotteryWorkflowId(opportunityId),
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [{ ...input, seedHash: row.seed_hash, units: row.units, mailGraceDays: row.mail_grace_days }],
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/** The preference groups a household belongs to, read from its profile when it applies. */
export async function lotteryGroupsOf(db: Db, householdId: string, opportunityId: string, today: string): Promise<LotteryGroup[]> {
  const [members, profile, lottery] = await Promise.all([
    db.selectFrom('household_members').select(['disability', 'date_of_birth']).where('household_id', '=', householdId).execute(),
    db.selectFrom('household_profiles').select('address').where('household_id', '=', householdId).executeTakeFirst(),
    db.selectFrom('opportunity_lotteries').select('community_board').where('opportunity_id', '=', opportunityId).executeTakeFirst(),
  ]);
  const groups: LotteryGroup[] = [];
  if (members.some((m) => m.disability)) groups.push('disability');
  const sixtyTwoYearsAgo = `${Number(today.slice(0, 4)) - 62}${today.slice(4)}`;
  if (members.some((m) => new Date(m.date_of_birth).toISOString().slice(0, 10) <= sixtyTwoYearsAgo)) groups.push('senior');
  const board = (profile?.address as { communityBoard?: string } | null)?.communityBoard?.trim().toLowerCase();
  if (board && lottery?.community_board && board === lottery.community_board.trim().toLowerCase()) groups.push('community');
  return groups;
}

/**
 * Whether the lottery still takes applications: its stage (projected from the workflow) and its
 * deadline, so an application in the moment between the deadline and the workflow's close is refused too.
 */
export async function lotteryAccepting(db: Db, opportunityId: string, now = new Date()): Promise<boolean> {
  const row = await db.selectFrom('opportunity_lotteries').select(['stage', 'deadline']).where('opportunity_id', '=', opportunityId).executeTakeFirst();
  if (row?.stage !== 'accepting') return false;
  return now.getTime() < Date.parse(applicationsCloseAt(row.deadline.slice(0, 10)));
}

/** The opportunity's lottery, for a manager of the owning organisation (403 otherwise). */
export async function managedLottery(db: Db, session: Session, opportunityId: string) {
  // One round trip: the lottery's owner and view with the caller's organisation.
  const row = await db
    .selectFrom('opportunity_lotteries')
    .select(['organization_id', 'view', sql<string | null>`(select organization_id from users where id = ${session.userId})`.as('caller_organization_id')])
    .where('opportunity_id', '=', opportunityId)
    .executeTakeFirst();
  if (!row) throw notFound();
  if (session.role !== 'Manager' || !row.caller_organization_id || row.caller_organization_id !== row.organization_id) throw forbidden();
  return { projected: (row.view as LotteryView | null) ?? null };
}

/**
 * The lottery's view as last projected (one query, no Temporal call). While it invites, the lottery
 * workflow is busy starting cases and a Query waits behind that work (seconds at 1,000 invitations);
 * its view is projected after every batch and every action, so the page's progress is at most one
 * batch behind. Only a lottery not projected yet (just published) asks its workflow.
 */
export async function lotteryView(deps: LotteryDeps, session: Session, opportunityId: string, now = Date.now()): Promise<LotteryView> {
  const { projected } = await managedLottery(deps.db, session, opportunityId);
  if (!projected) return readView<LotteryView>(deps, LOTTERY_KIND, opportunityId, null);
  return withCurrentActions(projected, now);
}

/** The projection's actions as of now: the deadline may have passed since it was written (its timer closes the stage soon after). */
function withCurrentActions(view: LotteryView, now: number): LotteryView {
  if (!view.availableActions.manager.includes('ExtendDeadline') || Date.parse(applicationsCloseAt(view.deadline)) > now) return view;
  return { ...view, availableActions: { manager: view.availableActions.manager.filter((a) => a !== 'ExtendDeadline') } };
}

/** One manager action on the lottery: one Update, refused by the workflow's table with the spec's message. */
export async function actOnLottery<A extends LotteryManagerAction>(deps: LotteryDeps, session: Session, opportunityId: string, action: A, input: LotteryInputs[A]): Promise<LotteryView> {
  const { projected } = await managedLottery(deps.db, session, opportunityId);
  // What the workflow cannot see from its state is checked here, before the Update: the list as
  // stored against its frozen hash (the draw activity refuses too), and the pair being decided.
  if (action === 'Draw' && (await listUnchangedSinceFreeze(deps.db, opportunityId)) === false) throw conflict('listChangedAfterFreeze');
  if (action === 'ResolveDuplicate') {
    const { pairId, keep } = input as LotteryInputs['ResolveDuplicate'];
    const pair = await deps.db.selectFrom('lottery_duplicate_pairs').select(['first_application_id', 'second_application_id', 'decided_at']).where('id', '=', pairId).where('opportunity_id', '=', opportunityId).executeTakeFirst();
    if (!pair || pair.decided_at) throw conflict('duplicatePairNotFound');
    if (keep !== pair.first_application_id && keep !== pair.second_application_id) throw unprocessable('keepOneOfPair');
  }
  return actOnCase(deps, LOTTERY_KIND, opportunityId, action, input, onCaseOf(session, 'manager', projected));
}

export interface RankedRow {
  applicationId: string;
  logNumber: string | null;
  rank: number;
  status: ApplicationStatus;
  householdSize: number;
  groups: string[];
  groupPositions: Record<string, number> | null;
  skipReason: string | null;
  invitedAt: string | null;
  /** The public reason code of the household's last pass-over in the invitation log, if any. */
  passOverReason: string | null;
}

/** The ranked list, a page at a time after a rank (cursor), for a manager of the owning organisation. */
export async function rankedPage(db: Db, session: Session, opportunityId: string, after: number, limit: number): Promise<{ rows: RankedRow[]; next: number | null }> {
  await managedLottery(db, session, opportunityId);
  const rows = await rankedQuery(db, opportunityId, after, limit + 1);
  return { rows: rows.slice(0, limit), next: rows.length > limit ? rows[limit - 1]!.rank : null };
}

async function rankedQuery(db: Db, opportunityId: string, after: number, limit: number): Promise<RankedRow[]> {
  const rows = await db
    .selectFrom('applications')
    .select(['id', 'log_number', 'lottery_rank', 'status', 'household_size', 'lottery_groups', 'lottery_group_positions', 'lottery_skip_reason', 'invited_at'])
    // By the (application_id, seq) index of the log: one lookup a row.
    .select((eb) =>
      eb
        .selectFrom('lottery_invitation_log as l')
        .select('l.reason')
        .whereRef('l.application_id', '=', 'applications.id')
        .where('l.event', '=', 'passed_over')
        .orderBy('l.seq', 'desc')
        .limit(1)
        .as('pass_over_reason'),
    )
    .where('opportunity_id', '=', opportunityId)
    .where('lottery_rank', '>', after)
    .orderBy('lottery_rank')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    applicationId: r.id,
    logNumber: r.log_number,
    rank: r.lottery_rank!,
    status: r.status,
    householdSize: r.household_size,
    groups: r.lottery_groups,
    groupPositions: r.lottery_group_positions,
    skipReason: r.lottery_skip_reason,
    invitedAt: r.invited_at ? r.invited_at.toISOString() : null,
    passOverReason: r.pass_over_reason ?? null,
  }));
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  // Quote always; neutralise spreadsheet formulas (a cell starting with = + - @).
  return `"${(/^[=+\-@]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
};

/** The ranked list as CSV, streamed a page at a time (no personal data beyond the household size). */
export async function* rankedCsv(db: Db, session: Session, opportunityId: string): AsyncGenerator<string> {
  await managedLottery(db, session, opportunityId);
  yield 'rank,log_number,status,household_size,groups,group_positions,skip_reason,invited_at,pass_over_reason\n';
  let after = 0;
  for (;;) {
    const rows = await rankedQuery(db, opportunityId, after, 5_000);
    if (rows.length === 0) return;
    yield rows
      .map((r) =>
        [r.rank, r.logNumber, r.status, r.householdSize, r.groups.join(' '), Object.entries(r.groupPositions ?? {}).map(([g, p]) => `${g}:${p}`).join(' '), r.skipReason, r.invitedAt, r.passOverReason]
          .map(csvCell)
          .join(','),
      )
      .join('\n') + '\n';
    after = rows.at(-1)!.rank;
  }
}

/**
 * The view of a lottery application that has no lease-up case: the application as submitted, in
 * lottery or waitlisted with its rank, no actions. Its case starts, at documentation review, when
 * the household is invited.
 */
export async function waitingView(db: Db, applicationId: string, now = Date.now()): Promise<(LeaseUpView & { lottery: { rank: number | null; groupPositions: Record<string, number> | null; skipReason: string | null } }) | null> {
  const row = await db.selectFrom('applications').selectAll().where('id', '=', applicationId).executeTakeFirst();
  if (!row || !WAITING_STATUSES.includes(row.status)) return null;
  const appliedAt = new Date(row.applied_at).toISOString();
  const s = initialLeaseUpState(
    {
      applicationId: row.id,
      householdId: row.household_id,
      opportunityId: row.opportunity_id,
      organizationId: row.organization_id,
      applicantUserId: row.applicant_user_id,
      householdSize: row.household_size,
      householdIncome: declaredIncomeOf(row),
      ...(row.log_number ? { logNumber: row.log_number } : {}),
    },
    appliedAt,
  );
  s.status = row.status;
  s.step = 'submitted';
  s.stepStartedAt = { submitted: appliedAt };
  s.history = [];
  const view = leaseUpView(s, now);
  return {
    ...view,
    availableActions: { applicant: [], manager: [] },
    pendingTasks: [],
    lottery: { rank: row.lottery_rank, groupPositions: row.lottery_group_positions, skipReason: row.lottery_skip_reason },
  };
}

