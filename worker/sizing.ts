import { getHeapStatistics } from 'node:v8';
import type { WorkerOptions } from '@temporalio/worker';
import type { Config } from '../infra/config';

export type WorkerSizingConfig = Pick<
  Config,
  | 'WORKER_MAX_CACHED_WORKFLOWS'
  | 'WORKER_CACHED_WORKFLOW_KB'
  | 'WORKER_HEAP_RESERVE_MB'
  | 'WORKER_TARGET_MEMORY_USAGE'
  | 'WORKER_TARGET_CPU_USAGE'
  | 'WORKER_WORKFLOW_TASK_SLOTS'
  | 'WORKER_ACTIVITY_TASK_SLOTS'
>;

const MiB = 1024 * 1024;
/**
 * How far above --max-old-space-size the heap limit V8 reports may be: it adds the young space
 * (192 MiB on Node 24 at a small heap). Beyond this, the worker was not started with the flag.
 */
export const HEAP_LIMIT_SLACK_MB = 256;
/** The share of workflow task pollers on the normal queue (the SDK's default: 0.2). */
const NORMAL_QUEUE_POLL_SHARE = 0.5;
/**
 * How long a task waits on the queue of the worker that has its workflow cached before any worker
 * may take it (the SDK's default: 10 s). When that worker died, every case it had cached waits this
 * long for its next step: an action a person sent waits with it. Another worker replays the history
 * instead, which costs milliseconds.
 */
const STICKY_QUEUE_TIMEOUT = '4 seconds';

/**
 * How much the worker takes on (the worker slows, it does not die).
 *
 * - The sticky cache holds what fits the heap: (heap limit - reserve) / budget per workflow. The
 *   workflow thread has the same heap limit as the process (V8 flags are per process), and every
 *   cached workflow lives there; the SDK's own default assumed about 1.7 MB each and a 4 GiB heap.
 *   A workflow that falls out of the cache is replayed from its history on its next task: slower,
 *   never lost.
 * - Workflow tasks run on fixed slots (WORKER_WORKFLOW_TASK_SLOTS, never more than the cache
 *   holds), and so do local activities (WORKER_ACTIVITY_TASK_SLOTS; a workflow task waits for its
 *   local activities while it holds its slot). The SDK's resource-based supplier hands out only its
 *   minimum while the machine's CPU is at its target, and a CPU at 100% is always at a target of 1:
 *   on the shared 2-core machine its two workflow slots went to sticky polls while 1,440 new cases
 *   waited 14 minutes on the normal queue (`npm run bench`, tests/spec-coverage.md).
 * - Half of the workflow task pollers (one per two slots, at most 16) poll the normal queue, where
 *   every new case's first task waits; the SDK's default gives it a fifth (with 8 slots, one or two
 *   pollers), and at 40 applies a second new cases waited there about 7 s while the workflow
 *   thread was mostly idle (the sticky pollers held the other slots). With half, about 4 s.
 * - Activities (PDF letters, S3, PostgreSQL: the memory that varies) are handed out by the
 *   resource-based supplier: above the target share of the machine's (or the container's cgroup)
 *   memory no new activity is taken until usage falls, so a burst queues on the Temporal server
 *   instead of exhausting the pod. A quarter of the slots are always given, so a busy CPU slows
 *   activities down and never stops them.
 */
export function workerSizing(
  config: WorkerSizingConfig,
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): Pick<WorkerOptions, 'maxCachedWorkflows' | 'tuner' | 'workflowTaskPollerBehavior' | 'nonStickyToStickyPollRatio' | 'stickyQueueScheduleToStartTimeout'> {
  const fit = Math.floor(((heapLimitBytes / MiB - config.WORKER_HEAP_RESERVE_MB) * 1024) / config.WORKER_CACHED_WORKFLOW_KB);
  const maxCachedWorkflows = config.WORKER_MAX_CACHED_WORKFLOWS ?? Math.max(2, fit);
  const tunerOptions = { targetMemoryUsage: config.WORKER_TARGET_MEMORY_USAGE, targetCpuUsage: config.WORKER_TARGET_CPU_USAGE };
  const workflowSlots = Math.max(2, Math.min(maxCachedWorkflows, config.WORKER_WORKFLOW_TASK_SLOTS));
  const activitySlots = config.WORKER_ACTIVITY_TASK_SLOTS;
  return {
    maxCachedWorkflows,
    workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: Math.max(2, Math.min(16, Math.floor(workflowSlots / 2))) },
    nonStickyToStickyPollRatio: NORMAL_QUEUE_POLL_SHARE,
    stickyQueueScheduleToStartTimeout: STICKY_QUEUE_TIMEOUT,
    tuner: {
      workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: workflowSlots },
      localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: activitySlots },
      activityTaskSlotSupplier: { type: 'resource-based', tunerOptions, minimumSlots: Math.max(1, Math.floor(activitySlots / 4)), maximumSlots: activitySlots },
      nexusTaskSlotSupplier: { type: 'fixed-size', numSlots: 1 },
    },
  };
}
