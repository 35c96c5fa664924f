import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import type { Config } from '../infra/config';
import { keyRingFromConfig } from '../infra/crypto';
import { useDataKeys } from '../infra/data-keys';
import { dataConverter, firstLine, temporalConnectionOptions } from '../infra/temporal/connection';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/**
 * Modules every workflow of a worker shares instead of evaluating its own copy (issue 11: a cached
 * workflow's memory). With the SDK's reused V8 context each workflow gets its own webpack module
 * cache, so every cached workflow used to hold its own zod and its own action tables and schemas,
 * built again. These modules keep no state of their own (no module-level `let`, no caches) and do
 * not import `@temporalio/workflow`; the SDK deep-freezes them once loaded, so a module that tried
 * to keep per-workflow state would fail loudly rather than leak between workflows.
 */
export const SHARED_WORKFLOW_MODULES = [
  'zod',
  ...['../domain/lease-up.view.ts', '../domain/recertification.table.ts', '../domain/relocation.table.ts', '../domain/lottery.table.ts', '../domain/access-grant.table.ts', '../domain/messages.ts', '../workflows/legacy/v1/domain.ts', '../workflows/legacy/v1/lease-up.state.ts', '../workflows/legacy/v1/recertification.state.ts', '../workflows/legacy/v1/relocation.state.ts'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  ),
];

/** How the worker (and the tests' prebuilt bundle) bundles the workflows. */
export const workflowBundlerOptions = { preloadModules: SHARED_WORKFLOW_MODULES };

type WorkerConfig = Parameters<typeof temporalConnectionOptions>[0] &
  Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'DATA_ENCRYPTION_KEY'> &
  Partial<Pick<Config, 'DATA_ENCRYPTION_KEYS_PREVIOUS'>>;

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
    workflowsPath,
    bundlerOptions: workflowBundlerOptions,
    activities: createActivities(deps),
    dataConverter: dataConverter(config),
    ...overrides,
  });
  return { worker, connection };
}
