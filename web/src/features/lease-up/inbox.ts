import type { ApplicationRow, TimelineStep } from '../../lib/domain';

export interface InboxFilter {
  opportunityName: string;
  step: TimelineStep | '';
}

const managerTasks = (row: ApplicationRow) => row.pendingTasks.filter((task) => task.role === 'manager');

function earliestDue(row: ApplicationRow): number {
  const dues = managerTasks(row).map((task) => (task.dueAt ? Date.parse(task.dueAt) : Number.POSITIVE_INFINITY));
  return dues.length ? Math.min(...dues) : Number.POSITIVE_INFINITY;
}

/**
 * The manager inbox order: rows waiting on the manager first (earliest due date, then oldest
 * application), then the rest, newest first.
 */
export function inboxRows(rows: readonly ApplicationRow[], filter: InboxFilter): ApplicationRow[] {
  return rows
    .filter((row) => !filter.opportunityName || row.opportunityName === filter.opportunityName)
    .filter((row) => !filter.step || row.currentStep === filter.step)
    .sort((a, b) => {
      const aMine = managerTasks(a).length > 0;
      const bMine = managerTasks(b).length > 0;
      if (aMine !== bMine) return aMine ? -1 : 1;
      if (aMine) return earliestDue(a) - earliestDue(b) || Date.parse(a.dateApplied) - Date.parse(b.dateApplied);
      return Date.parse(b.dateApplied) - Date.parse(a.dateApplied);
    });
}
