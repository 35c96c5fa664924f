/**
 * What the worker bundles: every workflow type of the portal.
 *
 * The worker preloads this module and everything it imports, once, into one module that every
 * workflow shares (worker/create-worker.ts, `workflowBundlerOptions`). So every import under
 * workflows/ is static, and nothing at module level keeps per-workflow state: a case's state lives
 * in its own run. A new workflow type is exported here (tests/workflows/entry.test.ts checks that
 * every workflow function of `workflows/*.ts` is, and that the bundle is one module).
 */
export { leaseUpApplication } from './lease-up';
export { recertification } from './recertification';
export { recertificationSweep } from './recertification-sweep';
export { retentionSweep } from './retention-sweep';
export { relocation } from './relocation';
export { lottery } from './lottery';
export { accessGrant } from './access-grant';
export { supportTicket } from './support-ticket';
export { bulkBatch } from './bulk-batch';
export { documentExtraction } from './document-extraction';
export { listingAlerts, listingAlertDigests } from './listing-alerts';
export { waitlist } from './waitlist';
