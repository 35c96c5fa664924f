import { sql } from 'kysely';
import type { CaseTasksProjection } from '../domain';
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
