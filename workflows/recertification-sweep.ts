import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, continueAsNew, log, sleep, startChild } from '@temporalio/workflow';
import { slowWork } from './activity-proxies';

/** Days per run before the history is restarted (continue-as-new keeps it short). */
const DAYS_PER_RUN = 30;

/**
 * Opens every annual recertification on time, whether or not the tenant signs in: once a day it
 * starts the cycles that entered their 120-day window (shared/design/workflows.md). Each cycle is
 * its own workflow (abandoned, not cancelled, when this one continues as new); an already started
 * cycle is skipped because its ID is derived from household and anniversary.
 */
export async function recertificationSweep(): Promise<void> {
  for (let day = 0; day < DAYS_PER_RUN; day++) {
    const due = await slowWork.dueAnnualRecertifications({ now: Date.now() });
    let started = 0;
    for (const { workflowId, input } of due) {
      try {
        await startChild('recertification', {
          workflowId,
          args: [input],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        });
        started += 1;
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    }
    if (started > 0) log.info('annual recertifications opened', { started });
    await sleep('1 day');
  }
  await continueAsNew<typeof recertificationSweep>();
}
