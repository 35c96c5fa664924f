import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { CaseTasksProjection } from '../../../domain';
import type { Database, Db } from '../database';

/** The advisory-lock key space of case projections (the first half of the two-part key). */
const CASE_LOCK_SPACE = 0x43415345; // 'CASE'

/**
 * Projections of one case take turns from here to the transaction's end: racing first inserts of a
 * new case otherwise meet on two unique keys (id and workflow ID), and a projection's next statement
 * sees everything the one it waited for committed. Other cases hash elsewhere and never wait.
 */
export async function lockCase(trx: Transaction<Database>, caseId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(CASE_LOCK_SPACE)}, hashtext(${caseId}))`.execute(trx);
}

/** A case's tasks projection whose context name may be read by the same statement (a subquery). */
export type CaseTasksWrite = Omit<CaseTasksProjection, 'contextName'> & { contextName: string | null | RawBuilder<string | null> };

/**
 * Replaces a case's open manager tasks in the inbox read model, inside the caller's transaction, in
 * one statement. Version-guarded: the case's version row is claimed first (inserted, or raised only
 * when this projection is newer) and only a claim writes tasks, so a repeated or older projection
 * changes nothing; a newer one removes the tasks it no longer lists and upserts the rest (a task
 * open across versions keeps its id and creation time, so the inbox order does not move under it).
 *
 * The statement's snapshot must include every earlier projection of the case: callers hold the
 * case's lock (taken in an earlier statement of the transaction) while a projection of it is running.
 */
export async function replaceCaseTasks(trx: Transaction<Database>, p: CaseTasksWrite): Promise<{ written: boolean }> {
  const { rows } = await sql<{ claimed: boolean }>`with ${caseTasksWrites(p)} select exists (select 1 from claimed) as claimed`.execute(trx);
  return { written: rows[0]?.claimed ?? false };
}

/**
 * The common table expressions of `replaceCaseTasks` (`claimed`, `listed`, `gone`, `kept`), for a
 * statement that writes the case's row too. `when`: the claim is made only if this query returns a
 * row (the case's own insert in the same statement), so a statement that wrote no row writes no task.
 */
export function caseTasksWrites(p: CaseTasksWrite, when?: RawBuilder<unknown>): RawBuilder<unknown> {
  const tasks = JSON.stringify(p.tasks.map((t) => ({ action: t.action, due_at: t.dueAt, overdue: t.overdue ?? false })));
  const claim = when
    ? sql`select ${p.caseKind}::text, ${p.caseId}::uuid, ${p.version}::integer where exists (${when})`
    : sql`values (${p.caseKind}, ${p.caseId}, ${p.version})`;
  return sql`
    claimed as (
      insert into manager_task_versions (case_kind, case_id, version) ${claim}
      on conflict (case_kind, case_id) do update set version = excluded.version where manager_task_versions.version < excluded.version
      returning version
    ), listed as (
      select t.action, t.due_at, coalesce(t.overdue, false) as overdue
      from jsonb_to_recordset(${tasks}::jsonb) as t(action text, due_at timestamptz, overdue boolean)
    ), gone as (
      delete from manager_tasks m
      where m.case_kind = ${p.caseKind} and m.case_id = ${p.caseId} and exists (select 1 from claimed)
        and not exists (select 1 from listed l where l.action = m.action)
    ), kept as (
      insert into manager_tasks (organization_id, case_kind, case_id, household_id, action, step, context_id, context_name, due_at, overdue, case_version)
      select ${p.organizationId}, ${p.caseKind}, ${p.caseId}, ${p.householdId}, l.action, ${p.step}, ${p.contextId}, ${p.contextName}, l.due_at, l.overdue, ${p.version}
      from listed l where exists (select 1 from claimed)
      on conflict (case_kind, case_id, action) do update set
        organization_id = excluded.organization_id, household_id = excluded.household_id, step = excluded.step,
        context_id = excluded.context_id, context_name = excluded.context_name, due_at = excluded.due_at,
        overdue = excluded.overdue, case_version = excluded.case_version
    )`;
}

/**
 * Replaces a case's open manager tasks in the inbox read model, in a transaction of its own.
 * Idempotent and version-guarded: a repeated projection leaves the same rows, and one older than
 * what is stored changes nothing.
 */
export async function projectCaseTasks(db: Db, p: CaseTasksProjection): Promise<{ written: boolean }> {
  return db.transaction().execute(async (trx) => {
    await lockCase(trx, p.caseId);
    return replaceCaseTasks(trx, p);
  });
}
