/**
 * A rolling upgrade of the workers on the cluster (README "Rolling upgrade"): cases started on build
 * A; `npm run cluster:upgrade`, whose replay check runs against the cluster's live histories, refuses a
 * build B whose workflow change is unpatched; with the change patched, B's workers come up beside A's
 * and the same command makes B current; the cases take their next steps on B, and the server reports A
 * drained.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentBuild, drainageOf } from '../../infra/temporal/deployment';
import { supportTicketWorkflowId } from '../../infra/temporal/ids';
import { changedWorkflowBundle, clusterConnection, clusterUpgrade, freeClusterEnv, replayCheck, signInOver, startCluster, startWorkers, type RunningCluster } from '../helpers/cluster';

const NAMESPACE = 'housing-portal';
const DEPLOYMENT = 'housing-portal';
const RUNNING_TICKETS = 'WorkflowType = "supportTicket" AND ExecutionStatus = "Running"';

/** B's change: the ticket workflow waits a moment before its first step (a timer A's histories do not have). */
const pauseFirst = (guard: 'unpatched' | 'patched') => (source: string) =>
  source
    .replace("import { log, workflowInfo } from '@temporalio/workflow';", "import { log, patched, sleep, workflowInfo } from '@temporalio/workflow';")
    .replace(
      '  const s = await runCase(supportTicketCase,',
      guard === 'patched' ? "  if (patched('pause-before-first-step')) await sleep('1 second');\n  const s = await runCase(supportTicketCase," : "  await sleep('1 second');\n  const s = await runCase(supportTicketCase,",
    );

describe('rolling upgrade of the workers (Worker Deployment Versioning)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let cluster: RunningCluster | undefined;
  let connection: Connection | undefined;
  let buildB: { stop(): Promise<void> } | undefined;
  let unpatched: string;
  let patchedBundle: string;
  const tickets: string[] = [];

  type Auth = { authorization: string };
  const call = async (who: Auth, path: string, body: object) => {
    const res = await fetch(`${cluster!.baseUrl}/api/SupportTicket/${path}`, { method: 'POST', headers: { authorization: who.authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { data: { ticketId: string; status: string } };
    expect(res.status, `${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json.data;
  };
  /** The build a run's last workflow task ran on. */
  const buildOf = async (workflowId: string) => {
    const described = await connection!.workflowService.describeWorkflowExecution({ namespace: NAMESPACE, execution: { workflowId } });
    return described.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-upgrade-'));
    env = await freeClusterEnv();
    [unpatched, patchedBundle] = await Promise.all([
      changedWorkflowBundle('build-b-unpatched', 'support-ticket.ts', pauseFirst('unpatched')),
      changedWorkflowBundle('build-b-patched', 'support-ticket.ts', pauseFirst('patched')),
    ]);
    // The server re-checks an old build's drainage every few minutes by default; seconds here, so the
    // test sees A drained without waiting that long (a setting of the server, not of the portal).
    const dynamicConfig = join(dataDir, 'temporal-dynamic.yaml');
    await writeFile(dynamicConfig, ['matching.wv.VersionDrainageStatusRefreshInterval:', '  - value: 2s', 'matching.wv.VersionDrainageStatusVisibilityGracePeriod:', '  - value: 2s', ''].join('\n'));
    cluster = await startCluster(dataDir, env, { WORKER_BUILD_ID: 'build-a', TEMPORAL_DYNAMIC_CONFIG_FILE: dynamicConfig });
    connection = await clusterConnection(cluster);
  });
  afterAll(async () => {
    await buildB?.stop();
    await connection?.close();
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('cases start on build A, the current build', async () => {
    expect(await currentBuild(connection!, NAMESPACE, DEPLOYMENT)).toBe('build-a');
    const tenant = await signInOver(cluster!.baseUrl, 'tenant', 'Tenant#2026');
    for (const subject of ['Heating', 'Leaking tap', 'Door lock']) {
      tickets.push((await call(tenant, 'CreateSupportTicket', { category: 'other', subject, message: `${subject} needs a look` })).ticketId);
    }
    for (const id of tickets) await expect.poll(() => buildOf(supportTicketWorkflowId(id))).toBe('build-a');
  });

  it('npm run cluster:upgrade refuses B with the change unpatched: the replay check names the workflows, A stays current', async () => {
    const { code, report } = await clusterUpgrade(dataDir, env, 'build-b', unpatched, RUNNING_TICKETS);
    expect(code, report).toBe(1);
    for (const id of tickets) expect(report).toContain(supportTicketWorkflowId(id));
    expect(report).toContain('refused: build build-b');
    expect(await currentBuild(connection!, NAMESPACE, DEPLOYMENT)).toBe('build-a');
  });

  it('with the change behind patched(), B comes up beside A and cluster:upgrade makes it current; the cases take their next steps on B', async () => {
    buildB = await startWorkers(dataDir, env, { buildId: 'build-b', bundlePath: patchedBundle, count: 2 });
    const { code, report } = await clusterUpgrade(dataDir, env, 'build-b', patchedBundle, RUNNING_TICKETS);
    expect(code, report).toBe(0);
    expect(report).toContain('build build-b is current; roll back with: npm run cluster:upgrade -- --build-id build-a');
    expect(await currentBuild(connection!, NAMESPACE, DEPLOYMENT)).toBe('build-b');

    const manager = await signInOver(cluster!.baseUrl, 'manager', 'Manager#2026');
    for (const id of tickets) {
      expect((await call(manager, 'AddReplyToTicket', { ticketId: id, message: 'We will come on Monday.' })).status).toBe('awaiting_requester');
      expect((await call(manager, `${id}/resolve`, { note: 'Fixed.' })).status).toBe('resolved');
    }
    // Every case ran its latest steps on B: none is left on A, whose workers now get no task.
    for (const id of tickets) await expect.poll(() => buildOf(supportTicketWorkflowId(id))).toBe('build-b');
    // The server says so too: A has drained, so its workers may stop.
    await expect.poll(() => drainageOf(connection!, NAMESPACE, DEPLOYMENT, 'build-a')).toBe('drained');
  });

  it('a case started after the switch runs B’s new path, and every live history replays on B', async () => {
    const tenant = await signInOver(cluster!.baseUrl, 'tenant', 'Tenant#2026');
    const fresh = (await call(tenant, 'CreateSupportTicket', { category: 'other', subject: 'Mailbox key', message: 'Lost my mailbox key' })).ticketId;
    const workflowId = supportTicketWorkflowId(fresh);
    await expect.poll(() => buildOf(workflowId)).toBe('build-b');
    const history = await connection!.workflowService.getWorkflowExecutionHistory({ namespace: NAMESPACE, execution: { workflowId } });
    // The patch marker and B's timer are in the new case's history.
    expect(history.history?.events?.some((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toBe(true);
    expect(history.history?.events?.some((e) => e.timerStartedEventAttributes)).toBe(true);

    const { code, report } = await replayCheck(dataDir, env, patchedBundle, RUNNING_TICKETS);
    expect(code, report).toBe(0);
    expect(report).toMatch(/supportTicket/);
  });
});
