import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import type { Config } from '../infra/config';
import { keyRingFromConfig } from '../infra/crypto';
import { useDataKeys } from '../infra/data-keys';
import { dataConverter, firstLine, temporalConnectionOptions } from '../infra/temporal/connection';
import { workerSizing, type WorkerSizingConfig } from './sizing';
import { activityMetricsInterceptor } from './metrics';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/**
 * The workflow code the worker runs: the bundle built ahead (WORKER_BUNDLE_PATH) or workflows/
 * bundled at start. `npm run replay:check` replays with the same choice (infra/temporal/replay.ts).
 */
export function workflowCode(config: Partial<Pick<Config, 'WORKER_BUNDLE_PATH'>>): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  return config.WORKER_BUNDLE_PATH ? { workflowBundle: { codePath: config.WORKER_BUNDLE_PATH } } : { workflowsPath };
}

type WorkerConfig = Parameters<typeof temporalConnectionOptions>[0] &
  Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'DATA_ENCRYPTION_KEY'> &
  Partial<Pick<Config, 'DATA_ENCRYPTION_KEYS_PREVIOUS' | 'WORKER_BUNDLE_PATH'> & WorkerSizingConfig>;

/** Builds the portal worker: every workflow and activity on one task queue. */
export async function createPortalWorker(
  config: WorkerConfig,
  deps: ActivityDeps,
  overrides: Partial<WorkerOptions> = {},
): Promise<{ worker: Worker; connection: NativeConnection }> {
  // Activities seal and open personal data and the lottery's seed with this process's keys (the API
  // sets its own; a worker in its own process, as under `npm start`, must too).
  useDataKeys(keyRingFromConfig(config));
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect(await temporalConnectionOptions(config));
  } catch (error) {
    throw new Error(`cannot reach Temporal at TEMPORAL_ADDRESS (${config.TEMPORAL_ADDRESS}): ${firstLine(error)}`, { cause: error });
  }
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...workflowCode(config),
    activities: createActivities(deps),
    dataConverter: dataConverter(config),
    // Issue 20: every activity attempt and failure counted (exported with the SDK's metrics, worker/metrics.ts).
    interceptors: { activity: [activityMetricsInterceptor] },
    // A parsed configuration always has the sizing (its defaults); a bare one (workflow tests) keeps the SDK's.
    ...(config.WORKER_CACHED_WORKFLOW_KB ? workerSizing(config as WorkerSizingConfig) : {}),
    ...overrides,
  });
  return { worker, connection };
}
