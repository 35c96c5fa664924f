import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { UNDER_RELOCATION, type RelocationAction, type RelocationActionInput, type RelocationView } from '../../domain';
import { getRelocationView, relocationUpdates } from '../../workflows/relocation.messages';
import { roleOf } from '../../workflows/relocation.state';
import { relocationId as buildRelocationId, relocationWorkflowId } from '../../workflows/ids';
import { conflict, forbidden, notFound, unprocessable } from '../errors';
import type { Session } from '../plugins/auth';
import type { RecertDeps } from './recertification-cycle';
import { householdOf, organizationOf } from './users';

type Deps = RecertDeps;

/** The workflow's view; once its history has passed retention, the last projected one. */
async function queryView(deps: Deps, id: string): Promise<RelocationView> {
  try {
    return await deps.temporal.workflow.getHandle(relocationWorkflowId(id)).query(getRelocationView);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    const row = await deps.db.selectFrom('relocation_cases').select('view').where('id', '=', id).executeTakeFirst();
    if (!row?.view) throw error;
    return row.view;
  }
}

async function viewerRole(deps: Deps, session: Session, view: RelocationView): Promise<'tenant' | 'manager'> {
  if (session.role === 'Manager') {
    if ((await organizationOf(deps.db, session.userId)) === view.organizationId) return 'manager';
  } else if (session.role === 'User' || session.role === 'Tenant') {
    if ((await householdOf(deps.db, session.userId))?.id === view.householdId) return 'tenant';
  }
  throw forbidden();
}

/** The household's relocation in progress, else its latest (read model). */
export async function currentRelocationId(deps: Deps, householdId: string): Promise<string | null> {
  const rows = await deps.db
    .selectFrom('relocation_cases')
    .select(['id', 'status'])
    .where('household_id', '=', householdId)
    .orderBy('started_at', 'desc')
    .execute();
  return (rows.find((r) => r.status !== 'returned') ?? rows[0])?.id ?? null;
}

/** `GET /api/Relocation`: the tenant's relocation and the user's `underRelocation`; a manager's organisation's list. */
export async function root(deps: Deps, session: Session) {
  if (session.role === 'Manager') {
    const org = await organizationOf(deps.db, session.userId);
    const rows = org
      ? await deps.db
          .selectFrom('relocation_cases as r')
          .innerJoin('households as h', 'h.id', 'r.household_id')
          .innerJoin('users as u', 'u.id', 'h.head_user_id')
          .select(['r.id', 'r.household_id', 'r.status', 'r.ends_at', 'r.under_relocation', 'u.first_name', 'u.last_name'])
          .where('r.organization_id', '=', org)
          .orderBy('r.started_at', 'desc')
          .execute()
      : [];
    return {
      relocations: rows.map((r) => ({
        relocationId: r.id,
        householdId: r.household_id,
        householdName: `${r.first_name} ${r.last_name}`,
        status: r.status,
        endsAt: r.ends_at ? new Date(r.ends_at).toISOString() : null,
        underRelocation: r.under_relocation,
      })),
    };
  }
  const relocation = await currentForUser(deps, session.userId);
  return { underRelocation: relocation ? UNDER_RELOCATION.includes(relocation.status) : false, relocation };
}

/** The signed-in resident's current relocation (the workflow's view), or null. */
export async function currentForUser(deps: Deps, userId: string): Promise<RelocationView | null> {
  const household = await householdOf(deps.db, userId);
  const id = household ? await currentRelocationId(deps, household.id) : null;
  return id ? queryView(deps, id) : null;
}

export async function detail(deps: Deps, session: Session, id: string): Promise<RelocationView> {
  const view = await queryView(deps, id);
  await viewerRole(deps, session, view);
  return view;
}

/** A manager starts a relocation for a tenant household of the organisation (one in progress at a time). */
export async function startRelocation(deps: Deps, session: Session, householdId: string, reason: string, now = Date.now()) {
  const org = await organizationOf(deps.db, session.userId);
  const household = await deps.db.selectFrom('households').select(['id', 'head_user_id', 'organization_id']).where('id', '=', householdId).executeTakeFirst();
  if (!household) throw notFound();
  if (!org || household.organization_id !== org) throw forbidden();
  const active = await deps.db.selectFrom('relocation_cases').select('id').where('household_id', '=', householdId).where('status', '!=', 'returned').executeTakeFirst();
  if (active) throw conflict('relocationAlreadyActive');
  const id = buildRelocationId(householdId, new Date(now).toISOString().slice(0, 10));
  try {
    await deps.temporal.workflow.start('relocation', {
      workflowId: relocationWorkflowId(id),
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      args: [{ relocationId: id, householdId, organizationId: org, tenantUserId: household.head_user_id, reason }],
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) throw conflict('relocationAlreadyActive');
    throw error;
  }
  return { relocationId: id };
}

/** Sends one action as the Update of its name; the API checks who may act, the validator whether now. */
export async function act(
  deps: Deps,
  session: Session,
  id: string,
  action: RelocationAction,
  body: Omit<RelocationActionInput, 'actor'> = {},
): Promise<RelocationView> {
  const current = await queryView(deps, id);
  const role = await viewerRole(deps, session, current);
  if (roleOf(action) !== role) throw forbidden();
  if (current.status === 'returned') throw conflict('relocationEnded');
  if (action === 'SubmitProfile') {
    // Submitting the profile for a relocation needs it complete (spec section 4: complete means 100).
    const household = await deps.db.selectFrom('households').select('profile_completion').where('id', '=', current.householdId).executeTakeFirst();
    if ((household?.profile_completion ?? 0) < 100) throw unprocessable('profileIncomplete');
  }
  return deps.temporal.workflow.getHandle(relocationWorkflowId(id)).executeUpdate(relocationUpdates[action], {
    args: [{ ...body, actor: { userId: session.userId, role, impersonatedBy: session.realUserId } }],
  });
}

/** Tenant households (with a tenancy) of the manager's organisation. */
export async function tenantHouseholds(deps: Deps, session: Session) {
  const org = await organizationOf(deps.db, session.userId);
  if (!org) return [];
  const rows = await deps.db
    .selectFrom('tenancies as t')
    .innerJoin('households as h', 'h.id', 't.household_id')
    .innerJoin('users as u', 'u.id', 'h.head_user_id')
    .select(['h.id', 'u.first_name', 'u.last_name', 't.building_name', 't.unit_number'])
    .where('t.organization_id', '=', org)
    .orderBy('u.last_name')
    .execute();
  return rows.map((r) => ({ householdId: r.id, name: `${r.first_name} ${r.last_name}`, building: r.building_name, unitNumber: r.unit_number }));
}
