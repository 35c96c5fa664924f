/**
 * Task queues and workflow IDs, in one place for the API, the worker and the tests.
 * Imported by the API, the worker, the activities and the tests, never by workflow code (it uses node:crypto).
 */
import { createHash } from 'node:crypto';

export const TASK_QUEUES = {
  /** Lease-up, recertification and relocation workflows and their activities. */
  portal: 'housing-portal',
} as const;

/**
 * One lease-up application per household per lottery (spec section 5). The application ID is a
 * name-based UUID of the lottery and the household, so both always give the same ID; the workflow
 * ID is built from it, and the workflow is started with a reuse policy that refuses any second start
 * with the same ID, even after the first has closed. A duplicate application therefore cannot exist,
 * also under concurrent requests: Temporal admits exactly one start per ID. Every later request
 * names the application by its ID alone and reaches the workflow without a database look-up.
 */
export function leaseUpApplicationId(opportunityId: string, householdId: string): string {
  return nameBasedUuid(`lease-up:${opportunityId}:${householdId}`);
}

export function leaseUpWorkflowId(applicationId: string): string {
  return `lease-up/${applicationId}`;
}

/**
 * One recertification per tenant household per cycle (shared/design/workflows.md). The cycle key is
 * 'annual:<lease anniversary date>' or 'interim:<date the change was reported>', so the same
 * household and cycle always give the same case ID; started with REJECT_DUPLICATE, a second annual
 * cycle for one anniversary (or two interim starts for one day's report) cannot exist, even when
 * the sweep and a tenant's request race.
 */
export function recertificationCaseId(householdId: string, cycle: string): string {
  return nameBasedUuid(`recertification:${householdId}:${cycle}`);
}

export function recertificationWorkflowId(caseId: string): string {
  return `recertification/${caseId}`;
}

/**
 * One relocation per tenant household per start date: the same household and date give the same
 * ID, so a double click or a retried request cannot start two relocations (the API also refuses a
 * new one while another is in progress).
 */
export function relocationId(householdId: string, startedOn: string): string {
  return nameBasedUuid(`relocation:${householdId}:${startedOn}`);
}

export function relocationWorkflowId(id: string): string {
  return `relocation/${id}`;
}

/** One workflow per granted delegated access, named by the grant row's ID. */
export function accessGrantWorkflowId(grantId: string): string {
  return `access-grant/${grantId}`;
}

/** One workflow per support ticket, named by the ticket's random ID (never by anything personal). */
export function supportTicketWorkflowId(ticketId: string): string {
  return `support-ticket/${ticketId}`;
}

/**
 * One workflow per bulk action, named by the batch's random ID: the batch row is
 * written first, then its workflow started with REJECT_DUPLICATE, so a retried request cannot run a batch twice.
 */
export function bulkBatchWorkflowId(batchId: string): string {
  return `bulk-batch/${batchId}`;
}

/** The reading of one document's figures: by the extraction's random id, never by what it holds. */
export function documentExtractionWorkflowId(extractionId: string): string {
  return `document-extraction/${extractionId}`;
}

/**
 * The Update a batch sends to one case: Temporal admits one Update per ID in a run, so a batch
 * retried (an activity after a worker restart, the batch itself) changes each case once.
 */
export function bulkCaseUpdateId(batchId: string, caseId: string): string {
  return `bulk:${batchId}:${caseId}`;
}

/** RFC 4122 version-5 layout over SHA-1 of the name (the name already carries its own namespace). */
function nameBasedUuid(name: string): string {
  const bytes = createHash('sha1').update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
