import type { Transaction } from 'kysely';
import type { CaseTasksProjection } from '../domain';
import type { Database } from '../infra/db/database';

/**
 * Replaces a case's open manager tasks in the inbox read model, inside the caller's transaction.
 * Version-guarded: the case's version row is claimed first (inserted, or raised only when this
 * projection is newer), and its row lock serialises projections of one case until commit, so a
 * repeated or older projection changes nothing and a newer one replaces every task.
 */
export async function replaceCaseTasks(trx: Transaction<Database>, p: CaseTasksProjection): Promise<{ written: boolean }> {
  const claimed = await trx
    .insertInto('manager_task_versions')
    .values({ case_kind: p.caseKind, case_id: p.caseId, version: p.version })
    .onConflict((oc) => oc.columns(['case_kind', 'case_id']).doUpdateSet({ version: p.version }).where('manager_task_versions.version', '<', p.version))
    .returning('version')
    .executeTakeFirst();
  if (!claimed) return { written: false };
  // A new statement sees what a projection this one waited for committed, so nothing of it is left.
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
  return { written: true };
}
