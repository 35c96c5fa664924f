import type { z } from 'zod';
import type { MessageCode } from './messages';
import type { Role } from './roles';

/**
 * The shared case mechanism, pure part: every durable case (a lease-up application, a
 * recertification, a relocation, and the kinds to come) is one state and one table per action.
 * A row of the table says who may take the action, its input, when it is available (a pure
 * function of the case's facts and the time), what it changes, the side effect the workflow runs
 * for it, the task it opens for its actor while available, whether it needs a reason and whether
 * it can be undone. The workflow kit (`workflows/case/`), the API's case service and the web app
 * all read the same table; nothing here does I/O or reads a clock.
 */

/** Who is acting, filled in by the API from the signed-in session (never by the client). */
export interface CaseActor<R extends string = string> {
  userId: string;
  role: R;
  /** The ambassador or manager acting for this user, when impersonating (spec section 4). */
  impersonatedBy: string | null;
}

/** The time a change happens at, and what it asks the workflow to do besides changing the state. */
export interface ChangeContext {
  /** Workflow time, ISO. */
  now: string;
  /** Asks for a durable timer; when it fires, the case's `fire` decides whether it still matters. */
  timer(event: string, at: string, token: string): void;
  /** Asks for a message to a person, sent once per dedupe key. */
  notify(notice: CaseNotice): void;
}

/** A message the workflow sends through the notification outbox (one send per dedupe key). */
export interface CaseNotice {
  userId: string;
  template: string;
  params: Record<string, string | number>;
  dedupeKey: string;
}

/** A durable timer of a case, kept in its state until it fires. */
export interface CaseTimer {
  event: string;
  at: string;
  token: string;
}

/** The task an available action opens for its actor (the applicant's "action needed", the manager's inbox). */
export interface TaskRule<S> {
  /** Only while this holds (the action may be available without being owed). */
  when?: (s: S) => boolean;
  due?: (s: S) => string | null;
  overdue?: (s: S) => boolean;
}

/** One row of a case kind's action table. `I` is this action's own input (the actor is added). */
export interface ActionRow<S, I, R extends string, E extends string> {
  /** Who may take it. */
  by: R;
  /** Its input, validated by the workflow's validator (the API validates the same schema). */
  input: z.ZodType<I>;
  /** When it is available: null, or the spec's refusal. Pure; reads the facts and the time only. */
  when: (s: S, now: number) => MessageCode | null;
  /** Refusals that depend on this input (which offer, which signer, which slot). */
  check?: (s: S, input: I & { actor: CaseActor<R> }, now: number) => MessageCode | null;
  /** What it changes in the state (synchronous and pure apart from the state it is given). */
  change: (s: S, input: I & { actor: CaseActor<R> }, ctx: ChangeContext) => void;
  /** The side effect the workflow runs right after the change, before answering (letter, document marking). */
  effect?: E;
  /** The task it opens for its actor while available; absent: it is possible but nobody's to-do. */
  task?: TaskRule<S>;
  /** A reason must be given ('Please provide a reason.'). */
  reason?: true;
  /** Cannot be undone: the web app asks for confirmation (spec section 4). */
  irreversible?: true;
}

/** The action table of a case kind: one row per action, each with its own input type. */
export type ActionTable<S, Inputs extends Record<string, object>, R extends string, E extends string = never> = {
  [A in keyof Inputs & string]: ActionRow<S, Inputs[A], R, E>;
};

// Rows are read through this erased shape where the action is not known statically.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRow<R extends string = string> = ActionRow<any, any, R, string>;
type AnyTable = Readonly<Record<string, AnyRow>>;

/** The actions of a table, in table order. */
export function actionsOf<T extends object>(table: T): (keyof T & string)[] {
  return Object.keys(table) as (keyof T & string)[];
}

/** Who may take `action`. */
export function roleOf<T extends AnyTable>(table: T, action: keyof T & string): T[typeof action]['by'] {
  return table[action]!.by;
}

export function irreversibleActions<T extends AnyTable>(table: T): (keyof T & string)[] {
  return actionsOf(table).filter((a) => table[a]!.irreversible);
}

export function actionsNeedingReason<T extends AnyTable>(table: T): (keyof T & string)[] {
  return actionsOf(table).filter((a) => table[a]!.reason);
}

/** The actions that open a task for their actor when available (what the inbox can show). */
export function taskActions<T extends AnyTable>(table: T): (keyof T & string)[] {
  return actionsOf(table).filter((a) => table[a]!.task);
}

/**
 * Why `action` may not be taken now with this input: the role, the final state, a missing reason,
 * the "allowed when" column and the input-specific checks, in that order. Null when it may.
 */
export function refusalOf<S, T extends AnyTable>(
  table: T,
  action: keyof T & string,
  s: S,
  input: { actor: CaseActor; reason?: string },
  now: number,
  finished: (s: S, action: string) => MessageCode | null,
  options: { skipCheck?: boolean } = {},
): MessageCode | null {
  const row = table[action]!;
  if (input.actor.role !== row.by) return 'forbidden';
  const stateRefusal = finished(s, action) ?? (row.reason && !input.reason?.trim() ? 'reasonRequired' : null) ?? row.when(s, now);
  if (stateRefusal || options.skipCheck) return stateRefusal;
  return row.check?.(s, input, now) ?? null;
}

/** What each role may do now (the buttons the web app shows): every action whose "allowed when" holds. */
export function availableActions<S, T extends AnyTable, R extends string>(
  table: T,
  roles: readonly R[],
  s: S,
  now: number,
  finished: (s: S, action?: string) => MessageCode | null,
): Record<R, (keyof T & string)[]> {
  const open = finished(s) === null;
  const result = Object.fromEntries(roles.map((r) => [r, [] as string[]])) as Record<R, (keyof T & string)[]>;
  if (!open) return result;
  for (const action of actionsOf(table)) {
    const row = table[action]!;
    if (row.when(s, now) === null) result[row.by as R]?.push(action);
  }
  return result;
}

/** A pending task as views show it. */
export interface PendingCaseTask<R extends string, A extends string> {
  role: R;
  action: A;
  dueAt: string | null;
  overdue?: boolean;
}

/** The tasks the available actions open (table column "task"), in table order. */
export function tasksOf<S, T extends AnyTable, R extends string>(table: T, available: Record<R, (keyof T & string)[]>, s: S): PendingCaseTask<R, keyof T & string>[] {
  const tasks: PendingCaseTask<R, keyof T & string>[] = [];
  for (const [role, actions] of Object.entries(available) as [R, (keyof T & string)[]][]) {
    for (const action of actions) {
      const rule = table[action]!.task as TaskRule<S> | undefined;
      if (!rule || (rule.when && !rule.when(s))) continue;
      tasks.push({ role, action, dueAt: rule.due?.(s) ?? null, ...(rule.overdue ? { overdue: rule.overdue(s) } : {}) });
    }
  }
  return tasks;
}

// ---------------------------------------------------------------------------------------------
// Refusals: one HTTP status per code, the same in every case kind.

/**
 * The HTTP status of each refusal a case (or the API in front of it) answers with. A refusal about
 * who asks is 403, about the input 422, anything about the case's current state 409.
 */
const REFUSAL_STATUS: Partial<Record<MessageCode | 'validation', 400 | 403 | 404 | 409 | 422>> = {
  validation: 400,
  forbidden: 403,
  signingWhileImpersonating: 403,
  notAllowedWhileImpersonating: 403,
  notFound: 404,
  reasonRequired: 422,
  documentsRequired: 422,
  slotsRequired: 422,
  unitsRequired: 422,
  emptySignature: 422,
  signatureRequired: 422,
  profileIncomplete: 422,
};

export function statusOfRefusal(code: string): number {
  return REFUSAL_STATUS[code as MessageCode] ?? 409;
}

// ---------------------------------------------------------------------------------------------
// Who the caller is on a case.

/** The caller as the API knows it: their role and where they belong. */
export interface Caller {
  role: Role;
  householdId: string | null;
  organizationId: string | null;
}

/** The two sides of a household case: the household itself, and the managers of its organisation. */
export type CaseSide = 'household' | 'manager';

/**
 * The caller's side on a case of a household and an organisation: residents and applicants act on
 * their own household's cases, managers on their organisation's; anyone else has no side (403).
 */
export function sideOn(caller: Caller, c: { householdId: string; organizationId: string }): CaseSide | null {
  if (caller.role === 'Manager') return caller.organizationId !== null && caller.organizationId === c.organizationId ? 'manager' : null;
  if (caller.role === 'User' || caller.role === 'Tenant') return caller.householdId !== null && caller.householdId === c.householdId ? 'household' : null;
  return null;
}
