import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { RetentionScheduleRuns } from '../../domain/operator';

/** The Temporal Schedule that starts the retention sweep (workflows/retention-sweep.ts) once a day. */
export const RETENTION_SCHEDULE_ID = 'retention-sweep';

/**
 * Creates the schedule once (an existing one is kept, with any pause an operator set). The worker
 * calls it when it starts. Each organisation's retention period is read by the sweep itself
 * (organizations.retention_days), so changing a period needs no new schedule. Runs never overlap;
 * one missed while the cluster was down is caught up within a day.
 */
export async function ensureRetentionSchedule(temporal: Client, taskQueue: string): Promise<void> {
  try {
    await temporal.schedule.create({
      scheduleId: RETENTION_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 day' }] },
      action: { type: 'startWorkflow', workflowType: 'retentionSweep', workflowId: RETENTION_SCHEDULE_ID, taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}

/** The schedule's last and next runs, for the operator console. */
export async function retentionScheduleRuns(temporal: Client): Promise<RetentionScheduleRuns> {
  try {
    const described = await temporal.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
    const last = described.info.recentActions.at(-1);
    const next = described.info.nextActionTimes[0];
    return { exists: true, paused: described.state.paused, lastRunAt: last ? last.takenAt.toISOString() : null, nextRunAt: next ? next.toISOString() : null };
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return { exists: false, paused: false, lastRunAt: null, nextRunAt: null };
    throw error;
  }
}
