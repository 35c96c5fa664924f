import { sql } from 'kysely';
import type { CaseTasksProjection } from '../domain';
import type { Db } from '../infra/db/database';
import { replaceCaseTasks } from './case-tasks';

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
 * version-guarded, in one transaction. Idempotent: the same projection twice writes nothing the
 * second time, and a late older one never overwrites newer state.
 */
export async function projectCase(
  db: Db,
  table: CaseTable,
  row: CaseRowBase & Record<string, unknown>,
  update: readonly string[],
  tasks: Omit<CaseTasksProjection, 'caseId' | 'organizationId' | 'householdId' | 'version'>,
): Promise<{ written: boolean }> {
  const columns = [...new Set(['pending_tasks', 'state_updated_at', 'state_version', 'view', ...update])];
  // One transaction (one commit) for the row and its tasks: the read model moves as one.
  return db.transaction().execute(async (trx) => {
    // Projections of one case take turns from the first statement: racing first inserts of a new
    // case otherwise meet on two unique keys (id and workflow ID) and Postgres may fail one with a
    // unique violation or pick it as a deadlock victim. Other cases hash elsewhere and never wait.
    await sql`select pg_advisory_xact_lock(${sql.lit(CASE_LOCK_SPACE)}, hashtext(${row.id}))`.execute(trx);
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
    return { written: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
  });
}

/** The advisory-lock key space of case projections (the first half of the two-part key). */
const CASE_LOCK_SPACE = 0x43415345; // 'CASE'
