import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, Worker, type BundleOptions, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { ConfigError, type Config } from '../infra/config';
import { keyRingFromConfig } from '../infra/crypto';
import { useDataKeys } from '../infra/data-keys';
import { dataConverter, firstLine, temporalConnectionOptions } from '../infra/temporal/connection';
import { workerSizing, type WorkerSizingConfig } from './sizing';
import { activityMetricsInterceptor } from './metrics';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/**
 * How workflows/ is bundled (a new case costs the worker what Temporal costs).
 *
 * The SDK's reused V8 context evaluates every module of the bundle again for each workflow it
 * creates, unless the module is preloaded: then it is evaluated once, when the worker starts, and
 * shared. Before this, each new case rebuilt the domain's tables and zod schemas (about 40% of the
 * workflow thread's time at 40 applies a second, and most of a cached case's memory).
 *
 * - `preloadModules`: the whole of workflows/ is evaluated once. It holds no per-workflow state at
 *   module level (every case's state lives in its run's closures; what a module keeps is constants
 *   and stateless proxies), which the SDK requires of a shared module.
 * - `concatenateModules`: webpack joins workflows/, domain/ and zod into one module, so the only
 *   objects the SDK deep-freezes when it shares them are the workflow functions that module exports.
 *   zod keeps caches on its schemas and regexes as it parses; frozen, its parsing would throw.
 *   Every import under workflows/ must therefore be static (a dynamic `import()` starts a module of
 *   its own, and whatever it shares with the rest stays outside, frozen):
 *   tests/workflows/entry.test.ts checks that the bundle is that one module.
 */
export function workflowBundlerOptions(path = workflowsPath) {
  return {
    preloadModules: [path],
    webpackConfigHook: (config) => ({ ...config, optimization: { ...config.optimization, concatenateModules: true } }),
  } satisfies NonNullable<WorkerOptions['bundlerOptions']>;
}

/** Bundles `path` (workflows/) as the worker does at start: for tests, replay and a bundle built ahead. */
export function bundleWorkflows(options: { path?: string; logger?: BundleOptions['logger'] } = {}) {
  const path = options.path ?? workflowsPath;
  return bundleWorkflowCode({ workflowsPath: path, ...workflowBundlerOptions(path), logger: options.logger });
}

/**
 * The workflow code the worker runs: the bundle built ahead (WORKER_BUNDLE_PATH) or workflows/
 * bundled at start. `npm run replay:check` replays with the same choice (worker/replay.ts).
 */
export function workflowCode(config: Partial<Pick<Config, 'WORKER_BUNDLE_PATH'>>): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath' | 'bundlerOptions'> {
  return config.WORKER_BUNDLE_PATH ? { workflowBundle: { codePath: config.WORKER_BUNDLE_PATH } } : { workflowsPath, bundlerOptions: workflowBundlerOptions() };
}

type WorkerConfig = Parameters<typeof temporalConnectionOptions>[0] &
  Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'DATA_ENCRYPTION_KEY'> &
  Partial<Pick<Config, 'DATA_ENCRYPTION_KEYS_PREVIOUS' | 'WORKER_BUNDLE_PATH' | 'WORKER_VERSIONING' | 'WORKER_DEPLOYMENT_NAME' | 'WORKER_BUILD_ID'> & WorkerSizingConfig>;

/**
 * Worker Deployment Versioning: the worker polls as build WORKER_BUILD_ID of the deployment, and
 * Temporal sends a run's tasks to the deployment's current build (README "Rolling upgrade").
 * AUTO_UPGRADE because a case lives for months: a run moves to the current build at its next task
 * (the replay check gates that step), instead of keeping every old build running until its last
 * case ends, as PINNED would.
 */
export function deploymentOptions(config: Pick<WorkerConfig, 'WORKER_VERSIONING' | 'WORKER_DEPLOYMENT_NAME' | 'WORKER_BUILD_ID'>): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  if (!config.WORKER_VERSIONING) return {};
  if (!config.WORKER_BUILD_ID) throw new ConfigError('Invalid configuration: WORKER_BUILD_ID is required with WORKER_VERSIONING=true (the build this worker runs, e.g. its image tag)');
  return {
    workerDeploymentOptions: {
      useWorkerVersioning: true,
      version: { deploymentName: config.WORKER_DEPLOYMENT_NAME ?? 'housing-portal', buildId: config.WORKER_BUILD_ID },
      defaultVersioningBehavior: 'AUTO_UPGRADE',
    },
  };
}

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
    // Every activity attempt and failure counted (exported with the SDK's metrics, worker/metrics.ts).
    interceptors: { activity: [activityMetricsInterceptor] },
    // A parsed configuration always has the sizing (its defaults); a bare one (workflow tests) keeps the SDK's.
    ...(config.WORKER_CACHED_WORKFLOW_KB ? workerSizing(config as WorkerSizingConfig) : {}),
    ...deploymentOptions(config),
    ...overrides,
  });
  return { worker, connection };
}
