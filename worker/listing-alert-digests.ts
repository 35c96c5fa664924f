import type { Client } from '@temporalio/client';
import { ALERT_DIGESTS_WORKFLOW_ID } from '../domain/listing-alerts';

/** Starts the weekly digest workflow once (a running one is kept); the worker calls it when it starts. */
export async function ensureListingAlertDigests(temporal: Client, taskQueue: string): Promise<void> {
  await temporal.workflow.start('listingAlertDigests', {
    workflowId: ALERT_DIGESTS_WORKFLOW_ID,
    taskQueue,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [{}],
  });
}
