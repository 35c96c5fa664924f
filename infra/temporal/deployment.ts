/**
 * Worker Deployment Versioning from the operator's side: which build of the worker deployment is
 * current (gets new runs and, for AUTO_UPGRADE runs, every next task), and making another one current.
 * Workers register their build by polling (worker/create-worker.ts, `deploymentOptions`).
 */
import type { Connection } from '@temporalio/client';

const grpcCode = (error: unknown) => (error as { code?: number }).code;

/** The current build of the deployment, or undefined when none is current yet (or the deployment is new). */
export async function currentBuild(connection: Connection, namespace: string, deploymentName: string): Promise<string | undefined> {
  try {
    const { workerDeploymentInfo } = await connection.workflowService.describeWorkerDeployment({ namespace, deploymentName });
    return workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || undefined;
  } catch (error) {
    if (grpcCode(error) === 5) return undefined; // NOT_FOUND: no worker of it has polled yet
    throw error;
  }
}

/** Builds of the deployment whose workers have polled, newest first as the server lists them. */
export async function knownBuilds(connection: Connection, namespace: string, deploymentName: string): Promise<string[]> {
  try {
    const { workerDeploymentInfo } = await connection.workflowService.describeWorkerDeployment({ namespace, deploymentName });
    return (workerDeploymentInfo?.versionSummaries ?? []).map((v) => v.deploymentVersion?.buildId ?? '').filter(Boolean);
  } catch (error) {
    if (grpcCode(error) === 5) return [];
    throw error;
  }
}

/**
 * Makes `buildId` current once its workers have registered it (their first poll), waiting up to
 * `timeoutMs` for that. Returns the build that was current before (undefined when none was).
 */
export async function makeBuildCurrent(connection: Connection, namespace: string, deploymentName: string, buildId: string, timeoutMs = 120_000): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const before = await currentBuild(connection, namespace, deploymentName);
    if (before === buildId) return before;
    if ((await knownBuilds(connection, namespace, deploymentName)).includes(buildId)) {
      try {
        await connection.workflowService.setWorkerDeploymentCurrentVersion({ namespace, deploymentName, buildId, identity: 'housing-portal operator' });
        return before;
      } catch (error) {
        // NOT_FOUND / FAILED_PRECONDITION while the version's task queues are still being registered.
        if (![5, 9].includes(grpcCode(error) ?? 0) || Date.now() > deadline) throw error;
      }
    } else if (Date.now() > deadline) {
      throw new Error(`build ${buildId} of worker deployment ${deploymentName} did not register within ${timeoutMs / 1000}s: no worker of it polled`);
    }
    await new Promise((done) => setTimeout(done, 500));
  }
}

/**
 * Whether a build no longer current has drained: `drained` once no open pinned run is left on it
 * (AUTO_UPGRADE runs move on at their next task), so its workers may stop. The server re-checks
 * this periodically (every few minutes by default), not at once.
 */
export async function drainageOf(connection: Connection, namespace: string, deploymentName: string, buildId: string): Promise<'active' | 'draining' | 'drained'> {
  const { workerDeploymentVersionInfo } = await connection.workflowService.describeWorkerDeploymentVersion({ namespace, deploymentVersion: { deploymentName, buildId } });
  const status = workerDeploymentVersionInfo?.drainageInfo?.status;
  return status === 2 ? 'drained' : status === 1 ? 'draining' : 'active'; // VERSION_DRAINAGE_STATUS_DRAINED, _DRAINING
}
