import type { Client } from '@temporalio/client';

/** The one sweep workflow that opens annual cycles daily (workflows/recertification-sweep.ts). */
export const RECERTIFICATION_SWEEP_ID = 'recertification-sweep';

/**
 * Starts the daily sweep once (a running sweep is kept). The worker calls it when it starts, so
 * annual cycles open, and their notices go out, even for tenants who never sign in.
 */
export async function ensureRecertificationSweep(temporal: Client, taskQueue: string): Promise<void> {
  await temporal.workflow.start('recertificationSweep', {
    workflowId: RECERTIFICATION_SWEEP_ID,
    taskQueue,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [],
  });
}
