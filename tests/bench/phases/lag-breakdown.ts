/**
 * Where the read-model lag goes, read from the workflow histories of some applications: waits for
 * a workflow task (schedule to start), workflow task run time, and for each activity its wait in
 * the task queue and its run time. Means in milliseconds over the cases read.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { summarize, type Summary } from '../stats';

type Event = temporal.api.history.v1.IHistoryEvent;

const at = (e: Event | undefined) => (e?.eventTime ? Number(e.eventTime.seconds ?? 0) * 1000 + (e.eventTime.nanos ?? 0) / 1e6 : Number.NaN);

export interface Segment {
  name: string;
  meanMs: number;
  count: number;
}

export interface Breakdown {
  segments: Segment[];
  /** What one application cost Temporal until now (load-independent, unlike the times). */
  perApplication: { workflowTasks: number; activityTasks: number; localActivities: number };
  /** From each workflow's start to the end of its first workflow task: how far the worker trailed the applies. */
  firstTaskMs: Summary;
}

/** Means of each segment over `workflowIds` (their whole histories so far). */
export async function lagBreakdown(client: Client, workflowIds: readonly string[]): Promise<Breakdown> {
  const sums = new Map<string, { total: number; count: number }>();
  const add = (name: string, ms: number) => {
    if (!Number.isFinite(ms)) return;
    const s = sums.get(name) ?? { total: 0, count: 0 };
    s.total += ms;
    s.count += 1;
    sums.set(name, s);
  };
  const counts = { workflowTasks: 0, activityTasks: 0, localActivities: 0 };
  const firstTask: number[] = [];
  for (const id of workflowIds) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const events = history.events ?? [];
    const byId = new Map(events.map((e) => [Number(e.eventId), e]));
    firstTask.push(at(events.find((e) => e.workflowTaskCompletedEventAttributes)) - at(events[0]));
    for (const e of events) {
      if (e.workflowTaskCompletedEventAttributes) counts.workflowTasks++;
      if (e.activityTaskScheduledEventAttributes) counts.activityTasks++;
      if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') counts.localActivities++;
      if (e.workflowTaskStartedEventAttributes) add('workflow task: wait for the worker', at(e) - at(byId.get(Number(e.workflowTaskStartedEventAttributes.scheduledEventId))));
      if (e.workflowTaskCompletedEventAttributes) add('workflow task: run', at(e) - at(byId.get(Number(e.workflowTaskCompletedEventAttributes.startedEventId))));
      const done = e.activityTaskCompletedEventAttributes;
      if (done) {
        const scheduled = byId.get(Number(done.scheduledEventId));
        const started = byId.get(Number(done.startedEventId));
        const name = scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? 'activity';
        add(`${name}: wait in queue`, at(started) - at(scheduled));
        add(`${name}: run`, at(e) - at(started));
      }
    }
  }
  const n = Math.max(1, workflowIds.length);
  return {
    segments: [...sums.entries()].map(([name, s]) => ({ name, meanMs: s.total / s.count, count: s.count })),
    perApplication: { workflowTasks: counts.workflowTasks / n, activityTasks: counts.activityTasks / n, localActivities: counts.localActivities / n },
    firstTaskMs: summarize(firstTask.filter(Number.isFinite)),
  };
}
