import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import {
  DEFAULT_LEASE_UP_SETTINGS,
  LEASE_UP_TABLE,
  incomeFit,
  leaseUpFinished,
  type ActorRole,
  type ApplicationDetail,
  formatLogNumber,
  type ApplyBody,
  type LeaseUpAction,
  type LeaseUpInputs,
  type LeaseUpView,
  type IncomeRange,
} from '../../domain';
import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { leaseUpMessages } from '../../workflows/lease-up.messages';
import { conflict, notFound, unprocessable } from '../errors';
import type { Session } from '../plugins/auth';
import { actOnCase, caseDetail, roleOnCase, type CaseAccess, type CaseExtra, type CaseKindApi } from './cases';
import { getPublished } from './opportunities';
import { lotteryAccepting, lotteryGroupsOf, waitingView } from './lottery';
import { householdOf } from './users';

export interface LeaseUpDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/** Lease-up applications as the case service serves them. */
export const LEASE_UP_KIND: CaseKindApi<LeaseUpView, LeaseUpInputs, ActorRole> = {
  table: 'applications',
  workflowId: leaseUpWorkflowId,
  messages: leaseUpMessages,
  roles: { household: 'applicant', manager: 'manager' },
  roleOf: (action) => LEASE_UP_TABLE[action].by,
  closed: 'applicationClosed',
  finished: (view, action) => leaseUpFinished(view, action),
};

/**
 * Applies: the application's read-model row is written first (its primary key, derived from the
 * lottery and the household, admits one application per household per lottery, also under
 * concurrent requests), then its workflow starts with a reuse policy that refuses a second start.
 */
export async function apply({ db, temporal, taskQueue }: LeaseUpDeps, session: Session, body: ApplyBody) {
  const household = await householdOf(db, session.userId);
  if (!household) throw unprocessable('profileIncomplete');
  const opportunity = await getPublished(db, body.opportunityId);
  if (!opportunity) throw notFound();
  if (opportunity.daysRemaining < 0) throw conflict('opportunityClosed');
  if (household.profile_completion < 100) throw unprocessable('profileIncomplete');

  const applicationId = leaseUpApplicationId(opportunity.id, household.id);
  const settings = await db
    .selectFrom('opportunities')
    .select(['offer_expiry_days', 'appeal_window_days', 'appeal_decision_business_days', 'additional_documents_days', 'selection'])
    .where('id', '=', opportunity.id)
    .executeTakeFirst();
  const now = new Date();
  if (settings?.selection === 'lottery') return applyToLottery(db, session, body, { ...opportunity, applicationId, householdId: household.id }, now);
  const inserted = await db
    .insertInto('applications')
    .values({
      id: applicationId,
      workflow_id: leaseUpWorkflowId(applicationId),
      household_id: household.id,
      opportunity_id: opportunity.id,
      organization_id: opportunity.organizationId,
      applicant_user_id: session.userId,
      status: 'in_review',
      current_step: 'documentation_review',
      pending_tasks: '[]',
      household_size: body.householdSize,
      household_income: body.householdIncome,
      applied_at: now,
      state_updated_at: now,
      state_version: 0,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw conflict('alreadyApplied');
  try {
    await temporal.workflow.start('leaseUpApplication', {
      workflowId: leaseUpWorkflowId(applicationId),
      taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [
        {
          applicationId,
          householdId: household.id,
          opportunityId: opportunity.id,
          organizationId: opportunity.organizationId,
          applicantUserId: session.userId,
          householdSize: body.householdSize,
          householdIncome: body.householdIncome,
          settings: settings
            ? {
                offerExpiryDays: settings.offer_expiry_days,
                appealWindowDays: settings.appeal_window_days,
                appealDecisionBusinessDays: settings.appeal_decision_business_days,
                additionalDocumentsDays: settings.additional_documents_days,
              }
            : DEFAULT_LEASE_UP_SETTINGS,
        },
      ],
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) throw conflict('alreadyApplied');
    // No workflow, no application: the household may apply again.
    await db.deleteFrom('applications').where('id', '=', applicationId).where('state_version', '=', 0).execute();
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
        household_income: body.householdIncome,
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

/** One application's detail: the workflow's view while it runs, its last projected view after. */
export async function detail(deps: LeaseUpDeps, session: Session, applicationId: string): Promise<ApplicationDetail> {
  const caller = await access(deps.db, session, applicationId);
  // A lottery application not invited yet has no case: its row says where it stands.
  const waiting = caller.view ? null : await waitingView(deps.db, applicationId);
  if (waiting) return { ...withNames(waiting, caller.role, caller.extra), lottery: waiting.lottery };
  const { view, role } = await caseDetail(deps, LEASE_UP_KIND, session, applicationId, caller);
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
  const { view, role } = await actOnCase(deps, LEASE_UP_KIND, session, applicationId, action, input, caller);
  return withNames(view, role, caller.extra);
}

async function assertHouseholdDocuments(db: Db, householdId: string, documents: { documentId?: string }[] | undefined): Promise<void> {
  const ids = [...new Set((documents ?? []).flatMap((d) => (d.documentId ? [d.documentId] : [])))];
  if (ids.length === 0) return;
  const found = await db.selectFrom('household_documents').select('id').where('household_id', '=', householdId).where('id', 'in', ids).execute();
  if (found.length !== ids.length) throw notFound();
}
