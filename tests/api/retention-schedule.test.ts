import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_SCHEDULE_ID, ensureRetentionSchedule } from '../../infra/temporal/retention-schedule';
import { signIn, startStack, type Stack } from '../helpers/stack';

/** The retention sweep's Temporal Schedule: created once by the worker, shown to the operator console with its last and next runs. */
describe('retention schedule', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.temporal.schedule.getHandle(RETENTION_SCHEDULE_ID).delete().catch(() => undefined);
    await stack?.close();
  });

  it('is created once, and the operator API shows when it runs next; only to admins', async () => {
    const admin = await signIn(stack.app, 'Admin');
    const get = (authorization?: string) => stack.app.inject({ method: 'GET', url: '/api/Operator/retention', headers: authorization ? { authorization } : {} });
    await stack.temporal.schedule.getHandle(RETENTION_SCHEDULE_ID).delete().catch(() => undefined);
    expect((await get(admin.authorization)).json().data).toEqual({ exists: false, paused: false, lastRunAt: null, nextRunAt: null });

    await ensureRetentionSchedule(stack.temporal, stack.config.TEMPORAL_TASK_QUEUE);
    // A second worker start keeps the schedule as it is.
    await ensureRetentionSchedule(stack.temporal, stack.config.TEMPORAL_TASK_QUEUE);
    const shown = await get(admin.authorization);
    expect(shown.statusCode).toBe(200);
    const runs = shown.json().data as { exists: boolean; paused: boolean; lastRunAt: string | null; nextRunAt: string | null };
    expect(runs).toMatchObject({ exists: true, paused: false, lastRunAt: null });
    expect(Number.isNaN(Date.parse(runs.nextRunAt ?? ''))).toBe(false);
    const description = await stack.temporal.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
    expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionSweep', taskQueue: stack.config.TEMPORAL_TASK_QUEUE });

    expect((await get((await signIn(stack.app, 'Manager')).authorization)).statusCode).toBe(403);
    expect((await get()).statusCode).toBe(401);
  });
});
