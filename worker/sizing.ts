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
 * How much the worker takes on (issue 11: the worker slows, it does not die).
 *
 * - The sticky cache holds what fits the heap: (heap limit - reserve) / budget per workflow. The
 *   workflow thread has the same heap limit as the process (V8 flags are per process), and every
 *   cached workflow lives there; the SDK's own default assumed about 1.7 MB each and a 4 GiB heap.
 *   A workflow that falls out of the cache is replayed from its history on its next task: slower,
 *   never lost.
 * - Workflow and activity task slots are handed out by the SDK's resource-based tuner: above the
 *   target share of the machine's (or the container's cgroup) memory no new task is taken until
 *   usage falls, so a burst queues on the Temporal server instead of exhausting the pod.
 * - At most WORKER_WORKFLOW_TASK_SLOTS workflow tasks and WORKER_ACTIVITY_TASK_SLOTS activities at
 *   once: more only queue inside the worker (one thread runs workflow code), where the server would
 *   have handed them to whichever worker is free.
 */
export function workerSizing(config: WorkerSizingConfig, heapLimitBytes = getHeapStatistics().heap_size_limit): Pick<WorkerOptions, 'maxCachedWorkflows' | 'tuner'> {
  const fit = Math.floor(((heapLimitBytes / MiB - config.WORKER_HEAP_RESERVE_MB) * 1024) / config.WORKER_CACHED_WORKFLOW_KB);
  const maxCachedWorkflows = config.WORKER_MAX_CACHED_WORKFLOWS ?? Math.max(2, fit);
  const tunerOptions = { targetMemoryUsage: config.WORKER_TARGET_MEMORY_USAGE, targetCpuUsage: config.WORKER_TARGET_CPU_USAGE };
  return {
    maxCachedWorkflows,
    tuner: {
      tunerOptions,
      // More workflow tasks at once than cached workflows would evict one to run another.
      workflowTaskSlotOptions: { minimumSlots: 2, maximumSlots: Math.max(2, Math.min(maxCachedWorkflows, config.WORKER_WORKFLOW_TASK_SLOTS)) },
      activityTaskSlotOptions: { minimumSlots: 1, maximumSlots: config.WORKER_ACTIVITY_TASK_SLOTS },
      localActivityTaskSlotOptions: { minimumSlots: 1, maximumSlots: config.WORKER_ACTIVITY_TASK_SLOTS },
    },
  };
}
