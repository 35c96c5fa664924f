import { sql, type RawBuilder } from 'kysely';
import type { CaseKind } from '../../../domain';
import type { Db } from '../database';
import { lockCase, replaceCaseTasks, type CaseTasksWrite } from './case-tasks';

/** The read-model tables of the case kinds: one row per case, with its last projected view. */
export type CaseTable = 'applications' | 'recertification_cases' | 'relocation_cases';

/** The columns every case read model has; the kind adds its own (status, step, dates...). */
export interface CaseRowBase {
  id: string;
  workflow_id: string;
  household_id: string;
  organization_id: string;
  pending_tasks: string;
  state_updated_at: string;
  state_version: number;
  /** The whole view, so one case's detail is still served once its workflow history is gone. */
  view: string;
}

/**
 * The one projection of every case kind: writes the case's row (the columns named in `update`
 * change on a newer version only) and its open manager tasks into the shared inbox, both
 * version-guarded, in one transaction of three statements (the case's lock, its row, its tasks).
 * Idempotent: the same projection twice writes nothing the second time, and a late older one never
 * overwrites newer state. A task's context name may be a subquery, read in the same statement.
 */
export async function projectCase(
  db: Db,
  table: CaseTable,
  row: CaseRowBase & Record<string, unknown>,
  update: readonly string[],
  tasks: Omit<CaseTasksWrite, 'caseId' | 'organizationId' | 'householdId' | 'version'>,
  /** What else the view's change records, in the same transaction, once the row is written. */
  alsoWhenWritten?: (trx: Db) => Promise<void>,
): Promise<{ written: boolean }> {
  const columns = [...new Set(['pending_tasks', 'state_updated_at', 'state_version', 'view', ...update])];
  // One transaction (one commit) for the row and its tasks: the read model moves as one.
  return db.transaction().execute(async (trx) => {
    await lockCase(trx, row.id);
    const result = await trx
      .insertInto(table)
      .values(row as never)
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ ...Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)])), projected_at: sql`now()` } as never)
          .where(sql.ref(`${table}.state_version`), '<', sql.ref('excluded.state_version')),
      )
      .executeTakeFirst();
    await replaceCaseTasks(trx, { ...tasks, caseId: row.id, organizationId: row.organization_id, householdId: row.household_id, version: row.state_version });
    const written = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    if (written && alsoWhenWritten) await alsoWhenWritten(trx);
    return { written };
  });
}

/**
 * Removes what a starter projected for a case whose workflow then did not start (so there is no
 * case): its row, only while no run has projected past `upToVersion`, and its inbox tasks.
 */
export async function dropUnstartedCase(db: Db, table: CaseTable, caseKind: CaseKind, caseId: string, upToVersion: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockCase(trx, caseId);
    const gone = await trx.deleteFrom(table).where('id', '=', caseId).where('state_version', '<=', upToVersion).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) return;
    await trx.deleteFrom('manager_tasks').where('case_kind', '=', caseKind).where('case_id', '=', caseId).execute();
    await trx.deleteFrom('manager_task_versions').where('case_kind', '=', caseKind).where('case_id', '=', caseId).execute();
  });
}

/** A household's building and unit ("Building 4B"), as the inbox names a tenant's case; read by the projection's own statement. */
export function tenancyName(householdId: string): RawBuilder<string | null> {
  return sql<string | null>`(select building_name || ' ' || unit_number from tenancies where household_id = ${householdId} limit 1)`;
}
