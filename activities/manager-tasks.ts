import { sql } from 'kysely';
import type { CaseTasksProjection, ManagerTaskFilter, ManagerTaskRow } from '../domain';
import type { Db } from '../infra/db/database';
import { replaceCaseTasks } from './case-tasks';

/**
 * Replaces a case's open manager tasks in the inbox read model. Idempotent and version-guarded: a
 * repeated projection leaves the same rows, and one older than what is stored changes nothing.
 */
export async function projectCaseTasks(db: Db, p: CaseTasksProjection): Promise<{ written: boolean }> {
  return db.transaction().execute((trx) => replaceCaseTasks(trx, p));
}

/** The open tasks of one organisation, soonest due first (overdue ones on top). */
export async function listManagerTasks(db: Db, organizationId: string, filter: ManagerTaskFilter): Promise<ManagerTaskRow[]> {
  let query = db
    .selectFrom('manager_tasks as t')
    .innerJoin('households as h', 'h.id', 't.household_id')
    .innerJoin('users as u', 'u.id', 'h.head_user_id')
    .select(['t.id', 't.case_kind', 't.case_id', 't.household_id', 'u.first_name', 'u.last_name', 't.action', 't.step', 't.context_id', 't.context_name', 't.due_at', 't.overdue', 't.created_at'])
    .where('t.organization_id', '=', organizationId);
  if (filter.caseKind) query = query.where('t.case_kind', '=', filter.caseKind);
  if (filter.contextId) query = query.where('t.context_id', '=', filter.contextId);
  if (filter.step) query = query.where('t.step', '=', filter.step);
  if (filter.dueBefore) query = query.where('t.due_at', '<=', new Date(`${filter.dueBefore}T23:59:59.999Z`));
  const rows = await query
    .orderBy('t.overdue', 'desc')
    .orderBy(sql`t.due_at nulls last`)
    .orderBy('t.created_at')
    .limit(500)
    .execute();
  return rows.map((r) => ({
    taskId: r.id,
    caseKind: r.case_kind,
    caseId: r.case_id,
    householdId: r.household_id,
    householdName: `${r.first_name} ${r.last_name}`,
    action: r.action,
    step: r.step,
    contextId: r.context_id,
    contextName: r.context_name,
    dueAt: r.due_at ? new Date(r.due_at).toISOString() : null,
    overdue: r.overdue,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
