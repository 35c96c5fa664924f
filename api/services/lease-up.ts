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
import { sealNumber } from '../../infra/data-keys';
import { projectApplication } from '../../infra/db/repositories/lease-up-projection';
import { dropUnstartedCase } from '../../infra/db/repositories/case-projection';
import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';
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

/** What `applyInOneTrip` reads and writes: the caller's household, the opportunity, and the row it inserted (if any). */
interface ApplyTrip {
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
  inserted_id: string | null;
  /** The log number issued with the row (bigserial, as text), handed to the workflow so its start need not ask for one. */
  log_number: string | null;
}

/**
 * One database round trip for an application to a first-come opportunity: reads the caller's
 * household (id and profile completion) and the published opportunity (deadline, organisation,
 * selection, lease-up settings), and inserts the application's row only when every check `apply`
 * makes passes (so whether it was inserted tells a duplicate from a refusal). The row's ID is
 * `leaseUpApplicationId` computed in SQL (pgcrypto's sha1, the same name-based UUID); `apply` checks
 * it against the TypeScript one. Primary key and ON CONFLICT keep one application per household per
 * opportunity under concurrent requests, as before.
 */
async function applyInOneTrip(db: Db, userId: string, body: ApplyBody, now: Date): Promise<ApplyTrip> {
  const today = now.toISOString().slice(0, 10);
  const { rows } = await sql<ApplyTrip>`
    with caller as (
      select h.id, h.profile_completion from households h where h.head_user_id = ${userId}::uuid limit 1
    ), target as (
      select o.id, o.organization_id, o.lottery_end_date, o.selection, o.offer_expiry_days, o.appeal_window_days,
             o.appeal_decision_business_days, o.additional_documents_days
      from opportunities o where o.id = ${body.opportunityId}::uuid and o.published
    ), named as (
      select c.id as household_id, t.id as opportunity_id, t.organization_id,
             digest('lease-up:' || t.id::text || ':' || c.id::text, 'sha1') as d
      from caller c, target t
      where c.profile_completion >= 100 and t.lottery_end_date >= ${today}::date and t.selection <> 'lottery'
    ), fresh as (
      select encode(set_byte(set_byte(substring(d from 1 for 16), 6, (get_byte(d, 6) & 15) | 80), 8, (get_byte(d, 8) & 63) | 128), 'hex')::uuid as id,
             household_id, opportunity_id, organization_id
      from named
    ), inserted as (
      insert into applications (id, workflow_id, household_id, opportunity_id, organization_id, applicant_user_id, status, current_step,
                                pending_tasks, household_size, household_income_encrypted, applied_at, state_updated_at, state_version)
      select f.id, 'lease-up/' || f.id::text, f.household_id, f.opportunity_id, f.organization_id, ${userId}::uuid, 'in_review', 'documentation_review',
             '[]'::jsonb, ${body.householdSize}::integer, ${sealNumber(body.householdIncome)}::text, ${now}::timestamptz, ${now}::timestamptz, 0
      from fresh f
      on conflict (id) do nothing
      returning id
    ), numbered as (
      insert into application_log_numbers (application_id) select id from inserted
      on conflict (application_id) do nothing
      returning number
    )
    select c.id as household_id, c.profile_completion, t.id as opportunity_id, t.organization_id, t.lottery_end_date, t.selection,
           t.offer_expiry_days, t.appeal_window_days, t.appeal_decision_business_days, t.additional_documents_days,
           (select id from inserted) as inserted_id, (select number from numbered) as log_number
    from (values (1)) as one (x) left join caller c on true left join target t on true`.execute(db);
  return rows[0]!;
}

/**
 * Applies: the application's read-model row is written first (its primary key, derived from the
 * lottery and the household, admits one application per household per lottery, also under
 * concurrent requests), then its workflow starts with a reuse policy that refuses a second start.
 * To a first-come opportunity, the checks and the insert are one database round trip
 * (`applyInOneTrip`); the refusals keep their order: no household, unknown or unpublished
 * opportunity, past its deadline, incomplete profile, already applied. The case's first view (the
 * state its run starts from) is then projected with its inbox task, before the start, so the read
 * model holds the whole application when the answer leaves, whatever the worker's backlog.
 */
export async function apply({ db, temporal, taskQueue }: LeaseUpDeps, session: Session, body: ApplyBody) {
  const now = new Date();
  const trip = await applyInOneTrip(db, session.userId, body, now);
  if (!trip.household_id) throw unprocessable('profileIncomplete');
  if (!trip.opportunity_id || !trip.organization_id || !trip.lottery_end_date) throw notFound();
  if (daysUntil(trip.lottery_end_date, now) < 0) throw conflict('opportunityClosed');
  if (Number(trip.profile_completion ?? 0) < 100) throw unprocessable('profileIncomplete');

  const applicationId = leaseUpApplicationId(trip.opportunity_id, trip.household_id);
  const target = { id: trip.opportunity_id, organizationId: trip.organization_id, applicationId, householdId: trip.household_id };
  if (trip.selection === 'lottery') return applyToLottery(db, session, body, target, now);
  if (!trip.inserted_id) throw conflict('alreadyApplied');
  if (trip.inserted_id !== applicationId) {
    // The SQL and TypeScript name-based IDs must agree (every later request derives the ID in TypeScript).
    await db.deleteFrom('applications').where('id', '=', trip.inserted_id).where('state_version', '=', 0).execute();
    throw new Error('application ID computed in SQL differs from leaseUpApplicationId');
  }
  const startedAt = now.toISOString();
  const input: StartLeaseUpInput = {
    applicationId,
    householdId: trip.household_id,
    opportunityId: trip.opportunity_id,
    organizationId: trip.organization_id,
    applicantUserId: session.userId,
    householdSize: body.householdSize,
    householdIncome: body.householdIncome,
    // Issued with the row; the case starts from the time the application was taken, and its first
    // view is projected here (the answer shows it in every list at once, and the run's first workflow
    // task has no database write to wait for).
    ...(trip.log_number ? { logNumber: formatLogNumber(trip.log_number), startedAt } : {}),
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
  if (input.startedAt) await projectApplication(db, firstView);
  try {
    await temporal.workflow.start('leaseUpApplication', {
      workflowId: leaseUpWorkflowId(applicationId),
      taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [input],
      // The first state's search attributes come with the start (the run upserts only later changes).
      ...(input.startedAt ? { typedSearchAttributes: caseStartSearchAttributes(leaseUpSearchFacts(firstView), startedAt) } : {}),
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
