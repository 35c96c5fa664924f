import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { DEFAULT_LEASE_UP_SETTINGS, FINAL_STATUSES, incomeFit } from '../../domain';
import type {
  ActionInput,
  ActorRole,
  ApplicationDetail,
  ApplicationRow,
  ApplyBody,
  LeaseUpAction,
  LeaseUpView,
} from '../../domain';
import type { Db } from '../../infra/db/database';
import { getLeaseUpView, leaseUpUpdates } from '../../workflows/lease-up.messages';
import { roleOf } from '../../workflows/lease-up.state';
import { finishedRefusal } from '../../workflows/lease-up.rules';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../workflows/ids';
import { conflict, forbidden, notFound, unprocessable } from '../errors';
import type { Session } from '../plugins/auth';
import { householdOf, organizationOf } from './users';
import { getPublished } from './opportunities';

export interface LeaseUpDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/** Starts the application workflow; the workflow ID makes a second application impossible. */
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
    .select(['offer_expiry_days', 'appeal_window_days', 'appeal_decision_business_days', 'additional_documents_days'])
    .where('id', '=', opportunity.id)
    .executeTakeFirst();
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
    throw error;
  }
  return { applicationId };
}

/** The caller's role on this application: its household, or a manager of its organisation. */
export async function viewerRole(db: Db, session: Session, view: LeaseUpView): Promise<ActorRole> {
  if (session.role === 'Manager') {
    if ((await organizationOf(db, session.userId)) === view.organizationId) return 'manager';
  } else if (session.role === 'User' || session.role === 'Tenant') {
    if ((await householdOf(db, session.userId))?.id === view.householdId) return 'applicant';
  }
  throw forbidden();
}

export async function queryView(temporal: Client, applicationId: string): Promise<LeaseUpView> {
  return temporal.workflow.getHandle(leaseUpWorkflowId(applicationId)).query(getLeaseUpView);
}

async function withNames(db: Db, view: LeaseUpView, role: ActorRole): Promise<ApplicationDetail> {
  // Accepting an offer hides the others from the applicant (spec section 4).
  if (role === 'applicant') view = { ...view, offers: view.offers.filter((o) => o.status !== 'superseded') };
  const [opportunity, applicant] = await Promise.all([
    db.selectFrom('opportunities').select(['name', 'income_ranges']).where('id', '=', view.opportunityId).executeTakeFirst(),
    db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', view.applicantUserId).executeTakeFirst(),
  ]);
  return {
    ...view,
    opportunityName: opportunity?.name ?? '',
    applicantFullName: applicant ? `${applicant.first_name} ${applicant.last_name}` : '',
    viewerRole: role,
    ...(role === 'manager' && opportunity ? { incomeFit: incomeFit(opportunity.income_ranges, view.householdSize, view.householdIncome) } : {}),
  };
}

/** One application's detail, read from the workflow (the single source of truth). */
export async function detail({ db, temporal }: LeaseUpDeps, session: Session, applicationId: string) {
  const view = await queryView(temporal, applicationId);
  return withNames(db, view, await viewerRole(db, session, view));
}

/**
 * Sends one action to the workflow as its Update. The API checks who may act; the workflow's
 * validator decides whether the action is allowed now and answers with the spec's message if not.
 */
export async function act(
  { db, temporal }: LeaseUpDeps,
  session: Session,
  applicationId: string,
  action: LeaseUpAction,
  body: Omit<ActionInput, 'actor'> = {},
): Promise<ApplicationDetail> {
  const current = await queryView(temporal, applicationId);
  const role = await viewerRole(db, session, current);
  if (roleOf(action) !== role) throw forbidden();
  // A finished workflow takes no more Updates; answer as its validator would have.
  if (FINAL_STATUSES.includes(current.status)) throw conflict(finishedRefusal(current, action));
  await assertHouseholdDocuments(db, current.householdId, body.documents);
  const view = await temporal.workflow.getHandle(leaseUpWorkflowId(applicationId)).executeUpdate(leaseUpUpdates[action], {
    args: [{ ...body, actor: { userId: session.userId, role, impersonatedBy: session.realUserId } }],
  });
  return withNames(db, view, role);
}

/** Documents named by id in an action (rejected, or answering a request) must be this household's. */
async function assertHouseholdDocuments(db: Db, householdId: string, documents: ActionInput['documents']): Promise<void> {
  const ids = [...new Set((documents ?? []).map((d) => d.documentId).filter((id): id is string => !!id))];
  if (ids.length === 0) return;
  const found = await db.selectFrom('household_documents').select('id').where('household_id', '=', householdId).where('id', 'in', ids).execute();
  if (found.length !== ids.length) throw notFound();
}

/** `getApplications`: the household's own applications, or a manager's organisation's (read model). */
export async function list({ db }: LeaseUpDeps, session: Session, search?: string): Promise<ApplicationRow[]> {
  let query = db
    .selectFrom('applications as a')
    .innerJoin('opportunities as o', 'o.id', 'a.opportunity_id')
    .innerJoin('users as u', 'u.id', 'a.applicant_user_id')
    .select([
      'a.id',
      'a.log_number',
      'a.opportunity_id',
      'o.name as opportunity_name',
      'u.first_name',
      'u.last_name',
      'a.household_size',
      'a.household_income',
      'a.applied_at',
      'a.status',
      'a.current_step',
      'a.pending_tasks',
    ]);
  if (session.role === 'Manager') {
    const organizationId = await organizationOf(db, session.userId);
    if (!organizationId) return [];
    query = query.where('a.organization_id', '=', organizationId);
  } else {
    const household = await householdOf(db, session.userId);
    if (!household) return [];
    query = query.where('a.household_id', '=', household.id);
  }
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('a.log_number', 'ilike', pattern), eb('o.name', 'ilike', pattern)]));
  }
  const rows = await query.orderBy('a.applied_at', 'desc').execute();
  return rows.map((r) => ({
    applicationId: r.id,
    logNumber: r.log_number,
    opportunityId: r.opportunity_id,
    opportunityName: r.opportunity_name,
    applicantFullName: `${r.first_name} ${r.last_name}`,
    totalHouseholdSize: r.household_size,
    totalHouseholdIncome: Number(r.household_income),
    dateApplied: new Date(r.applied_at).toISOString(),
    status: r.status,
    currentStep: r.current_step,
    pendingTasks: r.pending_tasks,
  }));
}
