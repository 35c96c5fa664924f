import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { lotteryWorkflowId, type StartLotteryInput } from '../domain';
import type { Db } from '../infra/db/database';

/**
 * Starts the workflow of every lottery whose read model was written but never projected (a
 * publish whose start did not reach Temporal, the demo seed). Called when the worker starts;
 * a running or finished lottery is left alone (its workflow ID admits one run).
 */
export async function ensureLotteries(db: Db, temporal: Client, taskQueue: string): Promise<number> {
  const rows = await db.selectFrom('opportunity_lotteries').select(['opportunity_id', 'organization_id', 'deadline', 'units', 'seed_hash', 'mail_grace_days']).where('state_version', '=', 0).execute();
  let started = 0;
  for (const row of rows) {
    const input: StartLotteryInput = {
      opportunityId: row.opportunity_id,
      organizationId: row.organization_id,
      deadline: typeof row.deadline === 'string' ? row.deadline : new Date(row.deadline).toISOString().slice(0, 10),
      units: row.units,
      seedHash: row.seed_hash,
      mailGraceDays: row.mail_grace_days,
    };
    try {
      await temporal.workflow.start('lottery', { workflowId: lotteryWorkflowId(row.opportunity_id), taskQueue, workflowIdReusePolicy: 'REJECT_DUPLICATE', args: [input] });
      started++;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  return started;
}
