/**
 * `npm run start:cluster` as an operator meets it: the production shape comes up on this machine,
 * Temporal persists and searches in PostgreSQL, every role signs in through HAProxy, the two API
 * replicas share live chat, and a second start keeps what the first one made.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_SEARCH_ATTRIBUTES } from '../../domain/case-search';
import { findTemporalCli } from '../../infra/tools/temporal-cli';
import { freeClusterEnv, signInOver, startCluster, type RunningCluster } from '../helpers/cluster';
import { listenToEvents } from '../helpers/event-stream';
import demo from '../../infra/demo-accounts.json' with { type: 'json' };

const run = promisify(execFile);

describe('npm run start:cluster', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let cluster: RunningCluster | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-cluster-'));
    env = await freeClusterEnv();
    const first = await startCluster(dataDir, env);
    cluster = first;
    process.stdout.write(`start:cluster (cold: empty data folder) ready in ${Math.round(first.startedInMs / 1000)}s\n`);
  });
  afterAll(async () => {
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says what runs where, and Temporal names PostgreSQL as its persistence and visibility store', async () => {
    const out = cluster!.output();
    for (const part of ['postgres', 'temporal', 'temporal-ui', 'minio', 'worker-1', 'worker-2', 'api-1', 'api-2', 'haproxy']) expect(out).toContain(`[cluster] ${part} started`);
    expect(out).toContain(`portal on http://localhost:${cluster!.ports.web} (HAProxy)`);
    const { stdout } = await run(await findTemporalCli(), ['operator', 'cluster', 'describe', '--address', cluster!.temporalAddress, '-o', 'json']);
    const described = JSON.parse(stdout) as { persistenceStore: string; visibilityStore: string; serverVersion: string; historyShardCount: number };
    expect(described).toMatchObject({ persistenceStore: 'postgres12', visibilityStore: 'postgres12', serverVersion: '1.29.1', historyShardCount: 512 });
  });

  it('npm run temporal:namespace makes a namespace with every case search attribute, and a second run changes nothing', async () => {
    const namespace = `scratch-${Date.now()}`;
    const step = () => run(process.execPath, ['--import', 'tsx', 'infra/temporal/namespace-cli.ts'], { env: { ...process.env, TEMPORAL_ADDRESS: cluster!.temporalAddress, TEMPORAL_NAMESPACE: namespace } });
    expect((await step()).stdout).toContain(`namespace ${namespace}: registered`);
    expect((await step()).stdout).toContain(`namespace ${namespace}: present`);
    const { stdout } = await run(await findTemporalCli(), ['operator', 'search-attribute', 'list', '--address', cluster!.temporalAddress, '--namespace', namespace, '-o', 'json']);
    for (const name of Object.keys(CASE_SEARCH_ATTRIBUTES)) expect(stdout).toContain(name);
  });

  it('the Temporal Web UI reads the cluster and decodes payloads through the portal', async () => {
    const ui = `http://127.0.0.1:${cluster!.ports.temporalUi}`;
    const settings = (await (await fetch(`${ui}/api/v1/settings`)).json()) as object;
    expect(settings).toMatchObject({ DefaultNamespace: 'housing-portal', Codec: { Endpoint: `http://localhost:${cluster!.ports.web}/codec`, PassAccessToken: true } });
    const listed = (await (await fetch(`${ui}/api/v1/namespaces`)).json()) as { namespaces: { namespaceInfo: { name: string } }[] };
    expect(listed.namespaces.map((n) => n.namespaceInfo.name)).toContain('housing-portal');
  });

  it("every role's demo account signs in through HAProxy", async () => {
    for (const account of demo.accounts) {
      const signedIn = await signInOver(cluster!.baseUrl, account.username, account.password);
      expect(signedIn.role).toBe(account.role);
    }
  });

  it('HAProxy sends requests to both replicas, each ready', async () => {
    for (const url of cluster!.replicaUrls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect((await fetch(`${cluster!.baseUrl}/readyz`)).status).toBe(200);
  });

  it('a page streaming from one replica sees a chat message sent through the other', async () => {
    const [one, other] = cluster!.replicaUrls;
    const manager = await signInOver(one, 'manager', 'Manager#2026');
    const tenant = await signInOver(other, 'tenant', 'Tenant#2026');
    const stream = await listenToEvents(`${one}/api/Chat/events`, manager);
    try {
      expect(stream.status).toBe(200);
      const sent = await fetch(`${other}/api/Chat/SendMessage`, { method: 'POST', headers: { authorization: tenant.authorization, 'content-type': 'application/json' }, body: JSON.stringify({ message: 'The heating is out on the 4th floor' }) });
      expect(sent.status).toBe(201);
      await expect.poll(() => stream.events.filter((e) => e.event === 'chat').map((e) => (e.data as { kind: string }).kind)).toContain('message');
    } finally {
      stream.stop();
    }
  });

  it('sends e-mail over SMTP to the mail sink', async () => {
    // A forgotten username sends a sign-in code by e-mail: queued by the API, delivered by a worker.
    const forgot = await fetch(`${cluster!.baseUrl}/api/Account/forgot-username/tenant@example.org`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(forgot.status, await forgot.clone().text()).toBe(200);
    await expect.poll(async () => (await readdir(join(dataDir, 'mail')).catch(() => [])).length).toBeGreaterThan(0);
  });

  it('a replica told to stop drains: its /readyz answers 503 while it still serves, and HAProxy keeps answering through the other', async () => {
    const pid = Number(/\[cluster\] api-1 started \(pid (\d+)\)/.exec(cluster!.output())![1]);
    process.kill(pid, 'SIGTERM');
    const [draining] = cluster!.replicaUrls;
    await expect.poll(async () => (await fetch(`${draining}/readyz`)).status).toBe(503);
    expect(await (await fetch(`${draining}/readyz`)).json()).toMatchObject({ data: { draining: true } });
    expect((await fetch(`${draining}/healthz`)).status).toBe(200);
    await expect.poll(async () => (await fetch(`${cluster!.baseUrl}/readyz`)).status).toBe(200);
    // The supervisor starts it again once it has stopped.
    await expect.poll(() => /\[cluster\] api-1 restarted/.test(cluster!.output())).toBe(true);
  });

  it('a second start keeps every account and the conversation; Ctrl-C stops everything', async () => {
    const before = await signInOver(cluster!.baseUrl, 'tenant', 'Tenant#2026');
    const out = await cluster!.stop();
    expect(out).toMatch(/\[cluster\] stopping\.\.\.\n[\s\S]*\[cluster\] stopped/);
    const second = await startCluster(dataDir, env);
    cluster = second;
    process.stdout.write(`start:cluster (warm: data kept) ready in ${Math.round(second.startedInMs / 1000)}s\n`);
    expect(second.output()).not.toContain('seeded demo data');
    const after = await signInOver(second.baseUrl, 'tenant', 'Tenant#2026');
    expect(after.userId).toBe(before.userId);
    const manager = await signInOver(second.baseUrl, 'manager', 'Manager#2026');
    // The tenant's message of the first start is still there, unread by the manager.
    const unseen = await fetch(`${second.baseUrl}/api/Chat/unseen-count`, { headers: { authorization: manager.authorization } });
    expect(((await unseen.json()) as { data: { unseenMessagesCount: number } }).data.unseenMessagesCount).toBeGreaterThan(0);
  });
});
