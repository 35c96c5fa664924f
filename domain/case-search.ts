/**
 * Search attributes every case workflow carries, so an operator finds a case by
 * what people tell them (a log number) and lists stuck ones, without an opaque workflow ID. They hold
 * no personal data: never a name, an email, an SSN, an income or free text, only the case's kind,
 * its log number, the opportunity and organisation IDs, status, step, an overdue flag and when it
 * last changed. Names and types are registered on the Temporal namespace (`npm start` does it on the
 * dev server; infra/production/README.md shows the command for a cluster).
 */
export const CASE_SEARCH_ATTRIBUTES = {
  CaseKind: 'KEYWORD',
  CaseLogNumber: 'KEYWORD',
  CaseOpportunityId: 'KEYWORD',
  CaseOrganizationId: 'KEYWORD',
  CaseStatus: 'KEYWORD',
  CaseStep: 'KEYWORD',
  CaseOverdue: 'BOOL',
  CaseChangedAt: 'DATETIME',
} as const;

export type CaseSearchAttributeName = keyof typeof CASE_SEARCH_ATTRIBUTES;

export const WORKFLOW_CASE_KINDS = ['lease-up', 'recertification', 'relocation', 'lottery', 'support-ticket', 'access-grant', 'bulk-batch'] as const;
export type WorkflowCaseKind = (typeof WORKFLOW_CASE_KINDS)[number];

/** What a case says about itself in its search attributes (the kit adds CaseChangedAt from its last change). */
export interface CaseSearchFacts {
  kind: WorkflowCaseKind;
  logNumber?: string | null;
  opportunityId?: string | null;
  organizationId?: string | null;
  status: string;
  step: string;
  overdue: boolean;
}

/** True when any task the case opened is past its due date. */
export function anyOverdue(tasks: readonly { overdue?: boolean }[] | undefined): boolean {
  return (tasks ?? []).some((t) => t.overdue === true);
}

/** A lease-up case's search facts, from its view: set by the API when it starts the case, kept by its run. */
export function leaseUpSearchFacts(v: { logNumber: string | null; opportunityId: string; organizationId: string; status: string; currentStep: string; pendingTasks: readonly { overdue?: boolean }[] }): CaseSearchFacts {
  return { kind: 'lease-up', logNumber: v.logNumber, opportunityId: v.opportunityId, organizationId: v.organizationId, status: v.status, step: v.currentStep, overdue: anyOverdue(v.pendingTasks) };
}
