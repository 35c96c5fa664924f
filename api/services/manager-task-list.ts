import { sql } from 'kysely';
import type { ManagerTaskQuery, ManagerTaskRow, Page } from '../../domain';
import type { Db } from '../../infra/db/database';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';

/**
 * The inbox order: overdue first, then soonest due (no due date last), then oldest, then the task id
 * as the unique tie-breaker. Written as ascending expressions (`not overdue`, `coalesce(due_at,
 * infinity)`) so one row comparison pages it and the indexes `manager_tasks_org_inbox`,
 * `_kind_inbox`, `_context_inbox` and `_step_inbox` (migration 2026-11-24T0100) read it in order.
 */
const INBOX: Keyset = {
  keys: [
    { expr: sql`(not t.overdue)`, type: 'boolean' },
    { expr: sql`coalesce(t.due_at, 'infinity'::timestamptz)`, type: 'timestamptz' },
    { expr: sql.ref('t.created_at'), type: 'timestamptz' },
  ],
  id: sql.ref('t.id'),
  idType: 'uuid',
};
const TAG = 'manager-tasks:inbox:asc';

/** The page's query (also read by the EXPLAIN test, so the plan checked is the one served). */
export function managerTaskPageQuery(db: Db, organizationId: string, query: ManagerTaskQuery) {
  const after = decodeCursor(query.cursor, INBOX, TAG);
  let q = db
    .selectFrom('manager_tasks as t')
    .innerJoin('households as h', 'h.id', 't.household_id')
    .innerJoin('users as u', 'u.id', 'h.head_user_id')
    .select(['t.id', 't.case_kind', 't.case_id', 't.household_id', 'u.first_name', 'u.last_name', 't.action', 't.step', 't.context_id', 't.context_name', 't.due_at', 't.overdue', 't.created_at'])
    .select(keysetSelections(INBOX))
    .where('t.organization_id', '=', organizationId);
  if (query.caseKind) q = q.where('t.case_kind', '=', query.caseKind);
  if (query.contextId) q = q.where('t.context_id', '=', query.contextId);
  if (query.step) q = q.where('t.step', '=', query.step);
  if (query.dueBefore) q = q.where('t.due_at', '<=', new Date(`${query.dueBefore}T23:59:59.999Z`));
  if (after) q = q.where(keysetAfter(INBOX, 'asc', after));
  return orderByKeyset(q, INBOX, 'asc').limit(query.limit + 1);
}

/** One page of an organisation's open tasks (the inbox read model) and the next page's cursor. */
export async function listManagerTasks(db: Db, organizationId: string | null, query: ManagerTaskQuery): Promise<Page<ManagerTaskRow>> {
  // A bad cursor is refused before anything is read, also for a manager with no organisation.
  decodeCursor(query.cursor, INBOX, TAG);
  if (!organizationId) return { items: [], nextCursor: null };
  const rows = await managerTaskPageQuery(db, organizationId, query).execute();
  return toPage(rows, query.limit, INBOX, TAG, (r) => ({
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
