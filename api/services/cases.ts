import type { Client } from '@temporalio/client';
import { sql, type AliasedRawBuilder } from 'kysely';
import { sideOn, type CaseActor, type CaseSide, type MessageCode } from '../../domain';
import type { Db } from '../../infra/db/database';
import { declaredIncomeOf } from '../../infra/db/repositories/declared-income';
import { askCaseView, caseRefusal, queryCaseView, sendCaseUpdate, type CaseRefusal } from '../../infra/temporal/case-update';
import { HttpError, forbidden, notFound } from '../errors';
import type { Session } from '../session';

/**
 * The one case service: how the API reads a case and carries one action to it, the same for all
 * seven kinds (api/services/case-kinds.ts). The workflow decides (its validator answers with the
 * spec's refusal); the API says who is asking and makes one Temporal call per action, through
 * infra/temporal/case-update.ts, which the bulk-action activity sends through too.
 */
export interface CaseKindApi<V, Inputs extends Record<string, object>, R extends string> {
  workflowId(caseId: string): string;
  /** Who may take each action (from the kind's action table). */
  roleOf(action: keyof Inputs & string): R;
  /** The refusal any action gets once the case is over (read from the last projected view). */
  finished(view: V, action: string): MessageCode | null;
  /** The refusal of an action sent to a case whose workflow has ended. */
  closed: MessageCode;
  /**
   * Writes an answered view into the read model at once (the projection the workflow also runs,
   * version-guarded), for kinds whose lists or checks must follow the action without waiting for it.
   */
  project?(db: Db, view: V): Promise<unknown>;
  /** The last projected view, read again when the workflow ended between the caller's read and the Update. */
  reread?(db: Db, caseId: string): Promise<V | null>;
}

/** A case of a household: its read model names the household and organisation that own it. */
export interface HouseholdCaseKind<V, Inputs extends Record<string, object>, R extends string> extends CaseKindApi<V, Inputs, R> {
  /** The read model of the kind (one row per case with its last projected view). */
  table: 'applications' | 'recertification_cases' | 'relocation_cases';
  /** The role name of each side of the case. */
  roles: Record<CaseSide, R>;
}

export interface CaseDeps {
  db: Db;
  temporal: Client;
}

/** Who acts on a case and what the read model last said of it (null: no view projected, or none kept). */
export interface OnCase<V, R extends string> {
  actor: CaseActor<R>;
  projected: V | null;
  /** The request's Idempotency-Key (`Session.requestKey`): the Update's ID, so a retried request is answered with the first outcome. */
  requestKey?: string | null | undefined;
}

/** The caller acting in a role: the session's user, and the ambassador or manager behind an impersonation. */
export function actorOf<R extends string>(session: Session, role: R): CaseActor<R> {
  return { userId: session.userId, role, impersonatedBy: session.realUserId };
}

/** The caller on a case in `role`, with the request's key (an Update ID for a retried request). */
export function onCaseOf<V, R extends string>(session: Session, role: R, projected: V | null): OnCase<V, R> {
  return { actor: actorOf(session, role), projected, requestKey: session.requestKey ?? null };
}

/** A refusal as the API answers it (the status and message of domain/case.ts `statusOfRefusal`). */
export function refusal(code: MessageCode): HttpError {
  return refusalError(caseRefusal(code));
}

function refusalError(r: CaseRefusal): HttpError {
  return new HttpError(r.status, r.code, r.message);
}

/**
 * Carries one action to a case as the Update of its name: 403 when the actor's role does not take
 * it, the kind's refusal when the last projected view says the case is over (no Temporal call),
 * else one Update, whose refusal answers with the spec's message and status. `check` runs the
 * caller's own checks of the input once the action is known to be theirs to take. Null when the
 * case has no running workflow: `actOnCase` answers that with the case's refusal; a caller with a
 * rule of its own for that (access grants from before grants had a case) applies it.
 */
export async function tryActOnCase<V, Inputs extends Record<string, object>, R extends string, A extends keyof Inputs & string>(
  deps: CaseDeps,
  kind: CaseKindApi<V, Inputs, R>,
  caseId: string,
  action: A,
  input: Inputs[A],
  { actor, projected, requestKey }: OnCase<V, R>,
  check?: () => Promise<void>,
): Promise<V | null> {
  if (kind.roleOf(action) !== actor.role) throw forbidden();
  const over = projected ? kind.finished(projected, action) : null;
  if (over) throw refusal(over);
  await check?.();
  const outcome = await sendCaseUpdate<Inputs, R, V, A>(deps.temporal, kind.workflowId(caseId), action, { ...input, actor }, requestKey ? { updateId: `request-${requestKey}` } : {});
  if (outcome.kind === 'refused') throw refusalError(outcome.refusal);
  if (outcome.kind === 'closed') return null;
  await kind.project?.(deps.db, outcome.view);
  return outcome.view;
}

/**
 * `tryActOnCase`, with a case whose workflow has ended answering from its final view (projected
 * before the workflow completes), else with the kind's `closed` refusal.
 */
export async function actOnCase<V, Inputs extends Record<string, object>, R extends string, A extends keyof Inputs & string>(
  deps: CaseDeps,
  kind: CaseKindApi<V, Inputs, R>,
  caseId: string,
  action: A,
  input: Inputs[A],
  on: OnCase<V, R>,
  check?: () => Promise<void>,
): Promise<V> {
  const view = await tryActOnCase(deps, kind, caseId, action, input, on, check);
  if (view !== null) return view;
  const final = kind.reread ? await kind.reread(deps.db, caseId) : null;
  throw refusal((final && kind.finished(final, action)) ?? kind.closed);
}

/** The case's view: the workflow's Query while it runs, the last projected view once its history is gone. */
export async function readView<V>(deps: Pick<CaseDeps, 'temporal'>, kind: Pick<CaseKindApi<V, never, string>, 'workflowId'>, caseId: string, projected: V | null): Promise<V> {
  return queryCaseView(deps.temporal, kind.workflowId(caseId), projected);
}

// ---------------------------------------------------------------------------------------------
// Household cases: the caller's side comes from the case's row and the session.

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
export async function caseAccess<V, Inputs extends Record<string, object>, R extends string, X = unknown>(
  db: Db,
  kind: HouseholdCaseKind<V, Inputs, R>,
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
  if (kind.table === 'applications') query = query.select(['c.household_income', 'c.household_income_encrypted']) as typeof query;
  const found = await query.executeTakeFirst();
  if (!found) throw notFound();
  const row = withDeclaredIncome(kind.table, found);
  const side = sideOn(
    { role: session.role, householdId: row.caller_household_id, organizationId: row.caller_organization_id },
    { householdId: row.household_id, organizationId: row.organization_id },
  );
  const { household_id: householdId, organization_id: organizationId, view, caller_household_id: _h, caller_organization_id: _o, ...rest } = row;
  return { householdId, organizationId, view: (view as V | null) ?? null, role: side ? kind.roles[side] : null, extra: rest as X };
}

/**
 * An application's stored view leaves the declared income out (it is sealed in its own column,
 * lease-up-projection.ts): put back here, so a case read from the read model has it as the workflow does.
 */
function withDeclaredIncome<T extends { view?: unknown; household_income?: string | null; household_income_encrypted?: string | null }>(table: string, row: T): Omit<T, 'household_income' | 'household_income_encrypted'> {
  const { household_income: plain, household_income_encrypted: sealed, ...rest } = row;
  if (table !== 'applications' || !rest.view || typeof rest.view !== 'object') return rest;
  const view = rest.view as Record<string, unknown>;
  if (typeof view.householdIncome === 'number') return rest;
  return { ...rest, view: { ...view, householdIncome: declaredIncomeOf({ household_income: plain ?? null, household_income_encrypted: sealed ?? null }) } };
}

/** The caller's role on the case, or 403. */
export async function roleOnCase<V, Inputs extends Record<string, object>, R extends string, X = unknown>(
  db: Db,
  kind: HouseholdCaseKind<V, Inputs, R>,
  session: Session,
  caseId: string,
  extra: CaseExtra = [],
): Promise<CaseAccess<V, R, X> & { role: R }> {
  const access = await caseAccess<V, Inputs, R, X>(db, kind, session, caseId, extra);
  if (!access.role) throw forbidden();
  return access as CaseAccess<V, R, X> & { role: R };
}

/** A household case's last projected view, read again (`CaseKindApi.reread`). */
export async function projectedView<V>(db: Db, table: HouseholdCaseKind<V, never, string>['table'], caseId: string): Promise<V | null> {
  let query = db.selectFrom(`${table} as c` as 'applications as c').select('c.view').where('c.id', '=', caseId);
  if (table === 'applications') query = query.select(['c.household_income', 'c.household_income_encrypted']) as typeof query;
  const row = await query.executeTakeFirst();
  return ((row && withDeclaredIncome(table, row).view) as V | null | undefined) ?? null;
}

/**
 * One household case's view for a caller who may see it (403 otherwise). The Query goes out with the
 * access check rather than after it (one round trip's wait, not two); its answer is read only once
 * the check has passed.
 */
export async function caseDetail<V, Inputs extends Record<string, object>, R extends string>(
  deps: CaseDeps,
  kind: HouseholdCaseKind<V, Inputs, R>,
  session: Session,
  caseId: string,
): Promise<{ view: V; role: R }> {
  const answer = askCaseView<V>(deps.temporal, kind.workflowId(caseId));
  const access = await roleOnCase(deps.db, kind, session, caseId);
  return { view: await answer(access.view), role: access.role };
}

/** One action on a household case by the signed-in caller, in their role on it (403 when they have none). */
export async function actOnHouseholdCase<V, Inputs extends Record<string, object>, R extends string, A extends keyof Inputs & string>(
  deps: CaseDeps,
  kind: HouseholdCaseKind<V, Inputs, R>,
  session: Session,
  caseId: string,
  action: A,
  input: Inputs[A],
  known?: CaseAccess<V, R> & { role: R },
): Promise<{ view: V; role: R }> {
  const { role, view: projected } = known ?? (await roleOnCase(deps.db, kind, session, caseId));
  return { view: await actOnCase(deps, kind, caseId, action, input, onCaseOf(session, role, projected)), role };
}
