import { z } from 'zod';
import { PageQuery } from './paging';

export const CASE_KINDS = ['lease_up', 'recertification', 'relocation'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

/** One open manager task of a case, as a workflow hands it to the inbox projection. */
export interface CaseTask {
  action: string;
  dueAt: string | null;
  overdue?: boolean;
}

/** What a workflow's projection writes into the shared manager inbox. */
export interface CaseTasksProjection {
  caseKind: CaseKind;
  caseId: string;
  organizationId: string;
  householdId: string;
  step: string;
  contextId: string | null;
  contextName: string | null;
  /** The case's state version; an older projection never replaces newer tasks. */
  version: number;
  tasks: CaseTask[];
}

/** A row of the manager inbox (`GET /api/ManagerTasks`). */
export interface ManagerTaskRow {
  taskId: string;
  caseKind: CaseKind;
  caseId: string;
  householdId: string;
  householdName: string;
  action: string;
  step: string;
  contextId: string | null;
  contextName: string | null;
  dueAt: string | null;
  overdue: boolean;
  createdAt: string;
}

export const ManagerTaskFilter = z.object({
  caseKind: z.enum(CASE_KINDS).optional(),
  contextId: z.string().uuid().optional(),
  step: z.string().trim().max(60).optional(),
  /** Only tasks due on or before this date (YYYY-MM-DD). */
  dueBefore: z.string().date().optional(),
});
export type ManagerTaskFilter = z.infer<typeof ManagerTaskFilter>;

/** `GET /api/ManagerTasks`: the filters and a page (cursor, limit) of the inbox. */
export const ManagerTaskQuery = ManagerTaskFilter.extend(PageQuery.shape);
export type ManagerTaskQuery = z.infer<typeof ManagerTaskQuery>;
