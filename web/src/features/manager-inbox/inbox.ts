import type { ManagerTaskRow } from '../../lib/domain';

/** One inbox line per case: its open tasks together, the earliest due date and any overdue flag. */
export interface InboxCase {
  caseKind: ManagerTaskRow['caseKind'];
  caseId: string;
  householdName: string;
  contextName: string | null;
  step: string;
  tasks: ManagerTaskRow[];
  dueAt: string | null;
  overdue: boolean;
}

/** Groups task rows by case, keeping the server's order (overdue first, then soonest due). */
export function inboxCases(rows: readonly ManagerTaskRow[]): InboxCase[] {
  const cases = new Map<string, InboxCase>();
  for (const row of rows) {
    const key = `${row.caseKind}:${row.caseId}`;
    const existing = cases.get(key);
    if (existing) {
      existing.tasks.push(row);
      existing.overdue ||= row.overdue;
      if (row.dueAt && (!existing.dueAt || row.dueAt < existing.dueAt)) existing.dueAt = row.dueAt;
    } else {
      cases.set(key, { caseKind: row.caseKind, caseId: row.caseId, householdName: row.householdName, contextName: row.contextName, step: row.step, tasks: [row], dueAt: row.dueAt, overdue: row.overdue });
    }
  }
  return [...cases.values()];
}
