import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import {
  UNDER_RELOCATION,
  type RelocationAction,
  type RelocationInputs,
  type RelocationView,
} from '../../domain';
import { relocationId as buildRelocationId, relocationWorkflowId } from '../../infra/temporal/ids';
import { conflict, forbidden, notFound } from '../errors';
import type { Session } from '../session';
import { RELOCATION_KIND } from './case-kinds';
import { actOnHouseholdCase, caseDetail, readView } from './cases';
import type { RecertDeps } from './recertification-cycle';
import { householdOf, organizationOf } from './users';

type Deps = RecertDeps;

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
  if (!id) return null;
  const row = await deps.db.selectFrom('relocation_cases').select('view').where('id', '=', id).executeTakeFirst();
  return readView(deps, RELOCATION_KIND, id, row?.view ?? null);
}

export async function detail(deps: Deps, session: Session, id: string): Promise<RelocationView> {
  return (await caseDetail(deps, RELOCATION_KIND, session, id)).view;
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
  // The read-model row first (the caller's role on the case comes from it), then the workflow.
  const startedAt = new Date(now);
  await deps.db
    .insertInto('relocation_cases')
    .values({
      id,
      workflow_id: relocationWorkflowId(id),
      household_id: householdId,
      organization_id: org,
      tenant_user_id: household.head_user_id,
      status: 'awaiting_profile',
      under_relocation: false,
      pending_tasks: '[]',
      started_at: startedAt,
      state_updated_at: startedAt,
      state_version: 0,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
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

/**
 * Sends one action as the Update of its name (one Temporal call); the workflow's table decides.
 * SubmitProfile carries the household's profile completion, read here (the workflow has no database).
 */
export async function act<A extends RelocationAction>(deps: Deps, session: Session, id: string, action: A, input: Omit<RelocationInputs[A], 'profileCompletion'>): Promise<RelocationView> {
  let full: RelocationInputs[RelocationAction] = input as RelocationInputs[A];
  if (action === 'SubmitProfile') {
    const row = await deps.db
      .selectFrom('relocation_cases as r')
      .innerJoin('households as h', 'h.id', 'r.household_id')
      .select('h.profile_completion')
      .where('r.id', '=', id)
      .executeTakeFirst();
    full = { ...input, profileCompletion: row?.profile_completion ?? 0 };
  }
  return (await actOnHouseholdCase(deps, RELOCATION_KIND, session, id, action, full as RelocationInputs[A])).view;
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
