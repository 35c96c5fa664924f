import {
  ACCESS_GRANT_TABLE,
  BULK_BATCH_TABLE,
  LEASE_UP_TABLE,
  LOTTERY_TABLE,
  RECERT_TABLE,
  RELOCATION_TABLE,
  SUPPORT_TICKET_TABLE,
  bulkBatchFinished,
  leaseUpFinished,
  lotteryFinished,
  lotteryWorkflowId,
  recertFinished,
  relocationFinished,
  supportTicketFinished,
  type AccessGrantCaseView,
  type AccessGrantInputs,
  type AccessGrantRole,
  type ActorRole,
  type BulkBatchCaseView,
  type BulkBatchInputs,
  type BulkBatchRole,
  type LeaseUpInputs,
  type LeaseUpView,
  type LotteryInputs,
  type LotteryRole,
  type LotteryView,
  type RecertInputs,
  type RecertView,
  type RelocationInputs,
  type RelocationView,
  type SupportTicketInputs,
  type SupportTicketRole,
  type SupportTicketView,
} from '../../domain';
import { projectAccessGrant } from '../../infra/db/repositories/access-grant-projection';
import { projectApplication } from '../../infra/db/repositories/lease-up-projection';
import { projectRecertification } from '../../infra/db/repositories/recertification-projection';
import { projectRelocation } from '../../infra/db/repositories/relocation-projection';
import { projectSupportTicket } from '../../infra/db/repositories/support-ticket-projection';
import { accessGrantWorkflowId, bulkBatchWorkflowId, leaseUpWorkflowId, recertificationWorkflowId, relocationWorkflowId, supportTicketWorkflowId } from '../../infra/temporal/ids';
import { projectedView, type CaseKindApi, type HouseholdCaseKind } from './cases';

/**
 * The seven case kinds as the case service (api/services/cases.ts) serves them: each names its
 * workflow, who takes each action (its action table), when it is over, and what it answers then.
 * The three household cases also name their read model, which says whose case it is.
 *
 * Each kind with a read model writes the view an action answered before the API answers (`project`):
 * a list read right after the action shows it, and the workflow's answer waits for no write of its
 * own. The workflow projects every version too, after its answer: the same version-guarded upsert,
 * so whichever lands second writes nothing, and a view the API never wrote (it died between the
 * answer and the write) still lands.
 */

export const LEASE_UP_KIND: HouseholdCaseKind<LeaseUpView, LeaseUpInputs, ActorRole> = {
  table: 'applications',
  workflowId: leaseUpWorkflowId,
  roles: { household: 'applicant', manager: 'manager' },
  roleOf: (action) => LEASE_UP_TABLE[action].by as ActorRole,
  finished: (view, action) => leaseUpFinished(view, action),
  closed: 'applicationClosed',
  project: projectApplication,
  reread: (db, id) => projectedView(db, 'applications', id),
};

export const RECERT_KIND: HouseholdCaseKind<RecertView, RecertInputs, 'tenant' | 'manager'> = {
  table: 'recertification_cases',
  workflowId: recertificationWorkflowId,
  roles: { household: 'tenant', manager: 'manager' },
  roleOf: (action) => RECERT_TABLE[action].by,
  finished: (view) => recertFinished(view),
  closed: 'recertificationCompleted',
  project: projectRecertification,
  reread: (db, id) => projectedView(db, 'recertification_cases', id),
};

export const RELOCATION_KIND: HouseholdCaseKind<RelocationView, RelocationInputs, 'tenant' | 'manager'> = {
  table: 'relocation_cases',
  workflowId: relocationWorkflowId,
  roles: { household: 'tenant', manager: 'manager' },
  roleOf: (action) => RELOCATION_TABLE[action].by,
  finished: (view) => relocationFinished(view),
  closed: 'relocationEnded',
  project: projectRelocation,
  reread: (db, id) => projectedView(db, 'relocation_cases', id),
};

/** An opportunity's lottery, named by the opportunity's ID; its managers act on it. */
export const LOTTERY_KIND: CaseKindApi<LotteryView, LotteryInputs, LotteryRole> = {
  workflowId: lotteryWorkflowId,
  roleOf: (action) => LOTTERY_TABLE[action].by,
  finished: (view) => lotteryFinished(view),
  closed: 'lotteryClosed',
};

/** A support ticket: written at once after each action, so lists and live pages follow it. */
export const SUPPORT_TICKET_KIND: CaseKindApi<SupportTicketView, SupportTicketInputs, SupportTicketRole> = {
  workflowId: supportTicketWorkflowId,
  roleOf: (action) => SUPPORT_TICKET_TABLE[action].by,
  finished: (view) => supportTicketFinished(view),
  closed: 'supportTicketClosed',
  project: projectSupportTicket,
};

/** A household's grant of access: written at once after each action, so an ended access stops the next impersonated request. */
export const ACCESS_GRANT_KIND: CaseKindApi<AccessGrantCaseView, AccessGrantInputs, AccessGrantRole> = {
  workflowId: accessGrantWorkflowId,
  roleOf: (action) => ACCESS_GRANT_TABLE[action].by,
  finished: () => null,
  closed: 'accessNotActive',
  project: projectAccessGrant,
};

/** A manager's bulk action over many applications; its one action is Cancel. */
export const BULK_BATCH_KIND: CaseKindApi<BulkBatchCaseView, BulkBatchInputs, BulkBatchRole> = {
  workflowId: bulkBatchWorkflowId,
  roleOf: (action) => BULK_BATCH_TABLE[action].by,
  finished: (view) => bulkBatchFinished(view),
  closed: 'bulkBatchFinished',
};
