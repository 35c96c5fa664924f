import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import {
  DEFAULT_LEASE_UP_SETTINGS,
  incomeFit,
  type ActorRole,
  type ApplicationDetail,
  daysUntil,
  formatLogNumber,
  type ApplyBody,
  type LeaseUpAction,
  type LeaseUpInputs,
  type LeaseUpView,
  type IncomeRange,
  type StartLeaseUpInput,
  initialLeaseUpState,
  leaseUpSearchFacts,
  leaseUpView,
} from '../../domain';
import { declaredIncomeColumns } from '../../infra/db/repositories/declared-income';
import { insertFirstApplication } from '../../infra/db/repositories/lease-up-projection';
import { dropUnstartedCase } from '../../infra/db/repositories/case-projection';
import { sql } from 'kysely';
import { prepared, type Db } from '../../infra/db/database';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { caseStartSearchAttributes } from '../../workflows/case/search';
import { conflict, notFound, unprocessable } from '../errors';
import type { Session } from '../session';
import { LEASE_UP_KIND } from './case-kinds';
import { askCaseView } from '../../infra/temporal/case-update';
import { actOnHouseholdCase, roleOnCase, type CaseAccess, type CaseExtra } from './cases';
import { lotteryAccepting, lotteryGroupsOf, waitingView } from './lottery';
import { recordMatchKey } from '../../infra/db/repositories/lottery-duplicates';

export interface LeaseUpDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/** What `applyCheck` reads: the caller's household, the opportunity, and what the application would be. */
interface ApplyCheck {
  household_id: string | null;
  profile_completion: number | null;
  opportunity_id: string | null;
  organization_id: string | null;
  lottery_end_date: string | null;
  selection: string | null;
  offer_expiry_days: number | null;
  appeal_window_days: number | null;
  appeal_decision_business_days: number | null;
  additional_documents_days: number | null;
  /** The application's ID, when every check passes and the opportunity is first-come. */
  application_id: string | null;
  /**
   * Its log number (bigserial, as text): the one issued before to this ID (an earlier apply whose
   * start failed), else a new one; null when the household has applied already.
   */
  log_sequence: string | null;
}

/**
 * One read for an application to a first-come opportunity: the caller's household (id and profile
 * completion), the published opportunity (deadline, organisation, selection, lease-up settings) and,
 * when every check `apply` makes passes and the household has not applied yet, the application's ID
 * and log number, so its first view can be built before the one statement that writes it. The ID is
 * `leaseUpApplicationId` computed in SQL (pgcrypto's sha1, the same name-based UUID); `apply` checks
 * it against the TypeScript one. A number is drawn only for an application about to be written (two
 * requests racing for the same one leave a gap in the sequence, as a rolled-back insert would).
 */
async function applyCheck(db: Db, userId: string, opportunityId: string, today: string): Promise<ApplyCheck> {
  const { rows } = await prepared(sql<ApplyCheck>`
    with caller as (
      select h.id, h.profile_completion from households h where h.head_user_id = ${userId}::uuid limit 1
    ), target as (
      select o.id, o.organization_id, o.lottery_end_date, o.selection, o.offer_expiry_days, o.appeal_window_days,
             o.appeal_decision_business_days, o.additional_documents_days
      from opportunities o where o.id = ${opportunityId}::uuid and o.published
    ), named as (
      select c.id as household_id, t.id as opportunity_id, digest('lease-up:' || t.id::text || ':' || c.id::text, 'sha1') as d
      from caller c, target t
      where c.profile_completion >= 100 and t.lottery_end_date >= ${today}::date and t.selection <> 'lottery'
    ), fresh as (
      select encode(set_byte(set_byte(substring(d from 1 for 16), 6, (get_byte(d, 6) & 15) | 80), 8, (get_byte(d, 8) & 63) | 128), 'hex')::uuid as id,
             household_id, opportunity_id
      from named
    ), issued as (
      select f.id, coalesce((select l.number from application_log_numbers l where l.application_id = f.id), nextval('application_log_numbers_number_seq')) as number
      from fresh f
      where not exists (select 1 from applications a where a.opportunity_id = f.opportunity_id and a.household_id = f.household_id)
    )
    select c.id as household_id, c.profile_completion, t.id as opportunity_id, t.organization_id, t.lottery_end_date, t.selection,
           t.offer_expiry_days, t.appeal_window_days, t.appeal_decision_business_days, t.additional_documents_days,
           (select id from fresh) as application_id, (select number from issued) as log_sequence
    from (values (1)) as one (x) left join caller c on true left join target t on true`).execute(db);
  return rows[0]!;
}

/**
 * The checks of `applyCheck` again, in the statement that writes the application (a row when they
 * still pass, with the opportunity's name for the inbox task): what was read a moment before may
 * have changed (the opportunity unpublished, the profile edited), and nothing is written then.
 */
function stillAdmitted(userId: string, householdId: string, opportunityId: string, today: string) {
  return sql`
    select o.name from opportunities o, households h
    where o.id = ${opportunityId}::uuid and o.published and o.lottery_end_date >= ${today}::date and o.selection <> 'lottery'
      and h.id = ${householdId}::uuid and h.head_user_id = ${userId}::uuid and h.profile_completion >= 100`;
}

/**
 * Applies: the application's read-model row is written first (its primary key, derived from the
 * lottery and the household, admits one application per household per lottery, also under
 * concurrent requests), then its workflow starts with a reuse policy that refuses a second start.
 * To a first-come opportunity, one read (`applyCheck`) makes every check and draws the log number;
 * the refusals keep their order: no household, unknown or unpublished opportunity, past its
 * deadline, incomplete profile, already applied. The case's first view (the state its run starts
 * from) is then written with its inbox task by one statement (`insertFirstApplication`), before the
 * start, so the read model holds the whole application when the answer leaves, whatever the
 * worker's backlog: two statements and one commit in all.
 */
export async function apply(deps: LeaseUpDeps, session: Session, body: ApplyBody, attempt = 1): Promise<{ applicationId: string }> {
  const { db, temporal, taskQueue } = deps;
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const trip = await applyCheck(db, session.userId, body.opportunityId, today);
  if (!trip.household_id) throw unprocessable('profileIncomplete');
  if (!trip.opportunity_id || !trip.organization_id || !trip.lottery_end_date) throw notFound();
  if (daysUntil(trip.lottery_end_date, now) < 0) throw conflict('opportunityClosed');
  if (Number(trip.profile_completion ?? 0) < 100) throw unprocessable('profileIncomplete');

  const applicationId = leaseUpApplicationId(trip.opportunity_id, trip.household_id);
  const target = { id: trip.opportunity_id, organizationId: trip.organization_id, applicationId, householdId: trip.household_id };
  if (trip.selection === 'lottery') return applyToLottery(db, session, body, target, now);
  // The SQL and TypeScript name-based IDs must agree (every later request derives the ID in TypeScript).
  if (trip.application_id !== applicationId) throw new Error('application ID computed in SQL differs from leaseUpApplicationId');
  if (!trip.log_sequence) throw conflict('alreadyApplied');
  const startedAt = now.toISOString();
  const input: StartLeaseUpInput = {
    applicationId,
    householdId: trip.household_id,
    opportunityId: trip.opportunity_id,
    organizationId: trip.organization_id,
    applicantUserId: session.userId,
    householdSize: body.householdSize,
    householdIncome: body.householdIncome,
    // Issued before the row is written; the case starts from the time the application was taken,
    // and its first view is written with the row (the answer shows it in every list at once, and the
    // run's first workflow task has no database write to wait for).
    logNumber: formatLogNumber(trip.log_sequence),
    startedAt,
    // The opportunity's columns are NOT NULL: null only when it was not found (refused above).
    settings: {
      offerExpiryDays: trip.offer_expiry_days ?? DEFAULT_LEASE_UP_SETTINGS.offerExpiryDays,
      appealWindowDays: trip.appeal_window_days ?? DEFAULT_LEASE_UP_SETTINGS.appealWindowDays,
      appealDecisionBusinessDays: trip.appeal_decision_business_days ?? DEFAULT_LEASE_UP_SETTINGS.appealDecisionBusinessDays,
      additionalDocumentsDays: trip.additional_documents_days ?? DEFAULT_LEASE_UP_SETTINGS.additionalDocumentsDays,
    },
  };
  const first = initialLeaseUpState(input, startedAt);
  const firstView = leaseUpView(first, now.getTime());
  const written = await insertFirstApplication(db, firstView, trip.log_sequence, stillAdmitted(session.userId, trip.household_id, trip.opportunity_id, today));
  if (!written.admitted) {
    // Changed since the read: reading again gives the refusal it now deserves (or admits it).
    if (attempt < 3) return apply(deps, session, body, attempt + 1);
    throw new Error('the household or the opportunity kept changing while applying');
  }
  if (!written.inserted) throw conflict('alreadyApplied');
  try {
    await temporal.workflow.start('leaseUpApplication', {
      workflowId: leaseUpWorkflowId(applicationId),
      taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [input],
      // The first state's search attributes come with the start (the run upserts only later changes).
      typedSearchAttributes: caseStartSearchAttributes(leaseUpSearchFacts(firstView), startedAt),
    });
  } catch (error) {
    // A run with this ID but no row: an earlier apply whose start Temporal took after the API gave up
    // (and dropped the row). The row written now stays, so the application shows again; the run
    // projects over it from its next change.
    if (error instanceof WorkflowExecutionAlreadyStartedError) throw conflict('alreadyApplied');
    // No workflow, no application: the household may apply again.
    await dropUnstartedCase(db, 'applications', 'lease_up', applicationId, first.version);
    throw error;
  }
  return { applicationId };
}

/**
 * A lottery application: its row only, 'in lottery' with a log number and the household's
 * preference groups; no workflow until the household is invited after the draw (a household never
 * invited costs no worker memory). The primary key still admits one application per household.
 */
async function applyToLottery(
  db: Db,
  session: Session,
  body: ApplyBody,
  target: { id: string; organizationId: string; applicationId: string; householdId: string },
  now: Date,
): Promise<{ applicationId: string }> {
  if (!(await lotteryAccepting(db, target.id, now))) throw conflict('opportunityClosed');
  const groups = await lotteryGroupsOf(db, target.householdId, target.id, now.toISOString().slice(0, 10));
  const inserted = await db.transaction().execute(async (trx) => {
    const log = await trx
      .insertInto('application_log_numbers')
      .values({ application_id: target.applicationId })
      .onConflict((oc) => oc.doNothing())
      .returning('number')
      .executeTakeFirst();
    if (!log) return false;
    const row = await trx
      .insertInto('applications')
      .values({
        id: target.applicationId,
        workflow_id: leaseUpWorkflowId(target.applicationId),
        household_id: target.householdId,
        opportunity_id: target.id,
        organization_id: target.organizationId,
        applicant_user_id: session.userId,
        log_number: formatLogNumber(log.number),
        status: 'in_lottery',
        current_step: 'submitted',
        pending_tasks: '[]',
        household_size: body.householdSize,
        ...declaredIncomeColumns(body.householdIncome),
        lottery_groups: JSON.stringify(groups),
        applied_at: now,
        state_updated_at: now,
        state_version: 0,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(row.numInsertedOrUpdatedRows ?? 0) > 0;
  });
  if (!inserted) throw conflict('alreadyApplied');
  // The same person applying on paper too is found by this key (nothing personal stored in plain).
  await recordMatchKey(db, { applicationId: target.applicationId, opportunityId: target.id, householdId: target.householdId });
  return { applicationId: target.applicationId };
}

/** What an application's detail shows beyond the workflow's view: read with the caller's role, in the same query. */
interface ApplicationNames {
  opportunity_name: string | null;
  income_ranges: IncomeRange[] | null;
  applicant_first_name: string | null;
  applicant_last_name: string | null;
  lottery_rank: number | null;
  lottery_group_positions: Record<string, number> | null;
}

const NAMES: CaseExtra = [
  sql<string | null>`(select o.name from opportunities o where o.id = c.opportunity_id)`.as('opportunity_name'),
  sql<IncomeRange[] | null>`(select o.income_ranges from opportunities o where o.id = c.opportunity_id)`.as('income_ranges'),
  sql<string | null>`(select u.first_name from users u where u.id = c.applicant_user_id)`.as('applicant_first_name'),
  sql<string | null>`(select u.last_name from users u where u.id = c.applicant_user_id)`.as('applicant_last_name'),
  sql<number | null>`c.lottery_rank`.as('lottery_rank'),
  sql<Record<string, number> | null>`c.lottery_group_positions`.as('lottery_group_positions'),
];

export type ApplicationAccess = CaseAccess<LeaseUpView, ActorRole, ApplicationNames> & { role: ActorRole };

/**
 * The caller's role on this application (its household, or a manager of its organisation), or 403;
 * with the names its detail shows, so an action or a detail costs one database round trip.
 */
export function access(db: Db, session: Session, applicationId: string): Promise<ApplicationAccess> {
  return roleOnCase<LeaseUpView, LeaseUpInputs, ActorRole, ApplicationNames>(db, LEASE_UP_KIND, session, applicationId, NAMES);
}

/** The view with the names the workflow does not hold, as the caller's role may see it. */
function withNames(view: LeaseUpView, role: ActorRole, names: ApplicationNames): ApplicationDetail {
  // Accepting an offer hides the others from the applicant (spec section 4).
  if (role === 'applicant') view = { ...view, offers: view.offers.filter((o) => o.status !== 'superseded') };
  return {
    ...view,
    opportunityName: names.opportunity_name ?? '',
    applicantFullName: names.applicant_first_name !== null ? `${names.applicant_first_name} ${names.applicant_last_name}` : '',
    viewerRole: role,
    ...(role === 'manager' && names.income_ranges ? { incomeFit: incomeFit(names.income_ranges, view.householdSize, view.householdIncome) } : {}),
  };
}

/**
 * One application's detail: the workflow's view while it runs, its last projected view after. The
 * Query goes out beside the access check (cases.ts `caseDetail`); a lottery application not invited
 * yet has no case, so its Query finds nothing and its row says where it stands.
 */
export async function detail(deps: LeaseUpDeps, session: Session, applicationId: string): Promise<ApplicationDetail> {
  const answer = askCaseView<LeaseUpView>(deps.temporal, LEASE_UP_KIND.workflowId(applicationId));
  const caller = await access(deps.db, session, applicationId);
  const waiting = caller.view ? null : await waitingView(deps.db, applicationId);
  if (waiting) return { ...withNames(waiting, caller.role, caller.extra), lottery: waiting.lottery };
  const view = await answer(caller.view);
  const role = caller.role;
  const { lottery_rank: rank, lottery_group_positions: groupPositions } = caller.extra;
  return { ...withNames(view, role, caller.extra), ...(rank ? { lottery: { rank, groupPositions, skipReason: null } } : {}) };
}

/**
 * Sends one action to the workflow as its Update: one Temporal call; the workflow's validator
 * decides whether it is allowed now and answers with the spec's message if not. With the caller's
 * access read once (names included), the request makes one database round trip.
 */
export async function act<A extends LeaseUpAction>(
  deps: LeaseUpDeps,
  session: Session,
  applicationId: string,
  action: A,
  input: LeaseUpInputs[A],
  known?: ApplicationAccess,
): Promise<ApplicationDetail> {
  const caller = known ?? (await access(deps.db, session, applicationId));
  // Documents named by id (rejected, or answering a request) must be this household's.
  if ('documents' in input) await assertHouseholdDocuments(deps.db, caller.householdId, input.documents);
  const { view, role } = await actOnHouseholdCase(deps, LEASE_UP_KIND, session, applicationId, action, input, caller);
  return withNames(view, role, caller.extra);
}

async function assertHouseholdDocuments(db: Db, householdId: string, documents: { documentId?: string }[] | undefined): Promise<void> {
  const ids = [...new Set((documents ?? []).flatMap((d) => (d.documentId ? [d.documentId] : [])))];
  if (ids.length === 0) return;
  const found = await db.selectFrom('household_documents').select('id').where('household_id', '=', householdId).where('id', 'in', ids).execute();
  if (found.length !== ids.length) throw notFound();
}
