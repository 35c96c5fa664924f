import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { sql, type AliasedRawBuilder } from 'kysely';
import { sideOn, statusOfRefusal, type CaseActor, type CaseSide, type MessageCode } from '../../domain';
import type { Db } from '../../infra/db/database';
import type { CaseMessages } from '../../workflows/case/messages';
import { HttpError, forbidden, notFound } from '../errors';
import type { Session } from '../plugins/auth';

/**
 * The one case service: how the API reads a case and carries one action to it, the same for every
 * case kind. The workflow decides (its validator answers with the spec's refusal); the API only
 * says who is asking, from the read model and the session, and makes one Temporal call per action.
 */
export interface CaseKindApi<V extends { version: number }, Inputs extends Record<string, object>, R extends string> {
  /** The read model of the kind (one row per case with its last projected view). */
  table: 'applications' | 'recertification_cases' | 'relocation_cases';
  workflowId(caseId: string): string;
  messages: CaseMessages<Inputs, R, V>;
  /** The role name of each side of a household case. */
  roles: Record<CaseSide, R>;
  /** Who may take each action (from the kind's action table). */
  roleOf(action: keyof Inputs & string): R;
  /** The refusal any action gets once the case is over (read from the last projected view). */
  finished(view: V, action: string): MessageCode | null;
  /** The refusal of an action sent to a case whose workflow has ended. */
  closed: MessageCode;
}

export interface CaseDeps {
  db: Db;
  temporal: Client;
}

/** A case as the read model has it, and the caller's role on it (null: none, answered 403). */
export interface CaseAccess<V, R, X = unknown> {
  householdId: string;
  organizationId: string;
  view: V | null;
  role: R | null;
  /** What the kind asked to read with it (`extra` columns), so the request needs no second query. */
  extra: X;
}

/** Columns a kind reads in the same query, over the case row aliased `c` (names, ranks...). */
export type CaseExtra = readonly AliasedRawBuilder<unknown, string>[];

/**
 * One database round trip: the case's owners and last projected view, with the caller's household
 * and organisation. 404 when the case is unknown (or not yet projected: apply and start insert the
 * row before answering, so a case the API handed out always has one).
 */
export async function caseAccess<V extends { version: number }, Inputs extends Record<string, object>, R extends string, X = unknown>(
  db: Db,
  kind: CaseKindApi<V, Inputs, R>,
  session: Session,
  caseId: string,
  extra: CaseExtra = [],
): Promise<CaseAccess<V, R, X>> {
  let query = db
    .selectFrom(`${kind.table} as c` as 'applications as c')
    .select([
      'c.household_id',
      'c.organization_id',
      'c.view',
      sql<string | null>`(select organization_id from users where id = ${session.userId})`.as('caller_organization_id'),
      sql<string | null>`(select id from households where head_user_id = ${session.userId})`.as('caller_household_id'),
    ])
    .where('c.id', '=', caseId);
  // The kind's own columns come back as `extra` (typed by the kind, X).
  if (extra.length > 0) query = query.select(extra as never) as typeof query;
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  const side = sideOn(
    { role: session.role, householdId: row.caller_household_id, organizationId: row.caller_organization_id },
    { householdId: row.household_id, organizationId: row.organization_id },
  );
  const { household_id: householdId, organization_id: organizationId, view, caller_household_id: _h, caller_organization_id: _o, ...rest } = row;
  return { householdId, organizationId, view: (view as V | null) ?? null, role: side ? kind.roles[side] : null, extra: rest as X };
}

/** The caller's role on the case, or 403. */
export async function roleOnCase<V extends { version: number }, Inputs extends Record<string, object>, R extends string, X = unknown>(
  db: Db,
  kind: CaseKindApi<V, Inputs, R>,
  session: Session,
  caseId: string,
  extra: CaseExtra = [],
): Promise<CaseAccess<V, R, X> & { role: R }> {
  const access = await caseAccess<V, Inputs, R, X>(db, kind, session, caseId, extra);
  if (!access.role) throw forbidden();
  return access as CaseAccess<V, R, X> & { role: R };
}

/**
 * The case's view: the workflow's Query while it runs, the last projected view once its history is
 * gone (retention) — the one read path of every case kind.
 */
export async function readView<V extends { version: number }, Inputs extends Record<string, object>, R extends string>(
  { temporal }: Pick<CaseDeps, 'temporal'>,
  kind: Pick<CaseKindApi<V, Inputs, R>, 'workflowId' | 'messages'>,
  caseId: string,
  projected: V | null,
): Promise<V> {
  try {
    return await temporal.workflow.getHandle(kind.workflowId(caseId)).query(kind.messages.getView);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError && projected) return projected;
    throw error;
  }
}

/** One case's view for a caller who may see it (403 otherwise). */
export async function caseDetail<V extends { version: number }, Inputs extends Record<string, object>, R extends string>(
  deps: CaseDeps,
  kind: CaseKindApi<V, Inputs, R>,
  session: Session,
  caseId: string,
  known?: CaseAccess<V, R> & { role: R },
): Promise<{ view: V; role: R }> {
  const access = known ?? (await roleOnCase(deps.db, kind, session, caseId));
  return { view: await readView(deps, kind, caseId, access.view), role: access.role };
}

/**
 * Carries one action to the case as the Update of its name: the caller's role comes from the read
 * model, the workflow's validator decides, and its refusal answers with the spec's message and the
 * status of that refusal (the same in every kind). A finished case (its workflow gone or closing)
 * answers from its last projected view, without a Temporal call.
 */
export async function actOnCase<V extends { version: number }, Inputs extends Record<string, object>, R extends string, A extends keyof Inputs & string>(
  deps: CaseDeps,
  kind: CaseKindApi<V, Inputs, R>,
  session: Session,
  caseId: string,
  action: A,
  input: Inputs[A],
  access?: CaseAccess<V, R> & { role: R },
): Promise<{ view: V; role: R }> {
  const { role, view: projected } = access ?? (await roleOnCase(deps.db, kind, session, caseId));
  if (kind.roleOf(action) !== role) throw forbidden();
  const closed = projected ? kind.finished(projected, action) : null;
  if (closed) throw refusal(closed);
  const actor: CaseActor<R> = { userId: session.userId, role, impersonatedBy: session.realUserId };
  const view = await sendUpdate(deps.temporal, kind.workflowId(caseId), kind.messages.updates[action], { ...input, actor }, async () => {
    const final = (await caseAccess(deps.db, kind, session, caseId)).view;
    return (final && kind.finished(final, action)) ?? kind.closed;
  });
  return { view, role };
}

/**
 * One Update to a case workflow, its refusal turned into the spec's message and status. A workflow
 * that finished between the caller's read and the Update (its final view is projected before it
 * completes) answers with `refusalOnceClosed`, read from that view.
 */
export async function sendUpdate<V, I>(
  temporal: Client,
  workflowId: string,
  update: UpdateDefinition<V, [I]>,
  input: I,
  refusalOnceClosed: () => Promise<MessageCode>,
): Promise<V> {
  try {
    return await temporal.workflow.getHandle(workflowId).executeUpdate(update, { args: [input] });
  } catch (error) {
    if (error instanceof WorkflowNotFoundError || isCompleted(error)) throw refusal(await refusalOnceClosed());
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type) {
      throw new HttpError(statusOfRefusal(error.cause.type), error.cause.type as MessageCode | 'validation', error.cause.message);
    }
    throw error;
  }
}

export function refusal(code: MessageCode): HttpError {
  return new HttpError(statusOfRefusal(code), code);
}

/** Temporal's answer to an Update sent to a workflow that has already completed. */
function isCompleted(error: unknown): boolean {
  return error instanceof Error && /workflow execution already completed/i.test(error.message);
}
