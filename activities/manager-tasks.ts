import type { CaseTasksProjection } from '../domain';
import type { Db } from '../infra/db/database';
import { lockCase, replaceCaseTasks } from './case-tasks';

/**
 * Replaces a case's open manager tasks in the inbox read model. Idempotent and version-guarded: a
 * repeated projection leaves the same rows, and one older than what is stored changes nothing.
 */
export async function projectCaseTasks(db: Db, p: CaseTasksProjection): Promise<{ written: boolean }> {
  return db.transaction().execute(async (trx) => {
    await lockCase(trx, p.caseId);
    return replaceCaseTasks(trx, p);
  });
}
