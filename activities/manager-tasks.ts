import { sql } from 'kysely';
import type { CaseTasksProjection, ManagerTaskFilter, ManagerTaskRow } from '../domain';
import type { Db } from '../infra/db/database';

/**
 * Replaces a case's open manager tasks in the inbox read model. Idempotent and version-guarded: a
 * repeated projection leaves the same rows, and one older than what is stored changes nothing.
 */
export async function projectCaseTasks(db: Db, p: CaseTasksProjection): Promise<{ written: boolean }> {
  return db.transaction().execute(async (trx) => {
    // Serialise projections of one case so the version check and the replace are atomic.
    await sql`select pg_advisory_xact_lock(hashtext(${`${p.caseKind}:${p.caseId}`}))`.execute(trx);
    const stored = await trx
      .selectFrom('manager_task_versions')
      .select('version')
      .where('case_kind', '=', p.caseKind)
      .where('case_id', '=', p.caseId)
      .executeTakeFirst();
    if ((stored?.version ?? 0) >= p.version) return { written: false };

    await trx.deleteFrom('manager_tasks').where('case_kind', '=', p.caseKind).where('case_id', '=', p.caseId).execute();
    if (p.tasks.length > 0) {
      await trx
        .insertInto('manager_tasks')
        .values(
          p.tasks.map((t) => ({
            organization_id: p.organizationId,
            case_kind: p.caseKind,
            case_id: p.caseId,
            household_id: p.householdId,
            action: t.action,
            step: p.step,
            context_id: p.contextId,
            context_name: p.contextName,
            due_at: t.dueAt,
            overdue: t.overdue ?? false,
            case_version: p.version,
          })),
        )
        .execute();
    }
    // Remember the version even when no task is open, so a late older projection cannot revive tasks.
    await trx
      .insertInto('manager_task_versions')
      .values({ case_kind: p.caseKind, case_id: p.caseId, version: p.version })
      .onConflict((oc) => oc.columns(['case_kind', 'case_id']).doUpdateSet({ version: p.version }))
      .execute();
    return { written: true };
  });
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
