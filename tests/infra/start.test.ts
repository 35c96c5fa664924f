import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { StartLeaseUpInput } from '../../domain';
import { isPortOpen } from '../../infra/embedded';
import { readLocalSecrets } from '../../infra/local-secrets';
import { dataConverter } from '../../infra/temporal/connection';
import { bundleWorkflows } from '../../worker/create-worker';
import { eventually } from '../helpers/stack';
import { freePort } from '../setup/global';
import demo from '../../infra/demo-accounts.json' with { type: 'json' };

/**
 * A run of workflow code this version no longer has, as a demo's data kept from an older version
 * holds: started on the stack's own Temporal by a worker running a changed lease-up workflow
 * (tests/fixtures/replay-changed: a timer before its first command), which stops once that first
 * workflow task is in the history. On its own task queue, so the portal's worker never picks it up.
 */
async function startRunOfOlderCode(address: string, dataDir: string): Promise<string> {
  const converter = dataConverter({ DATA_ENCRYPTION_KEY: (await readLocalSecrets(dataDir)).DATA_ENCRYPTION_KEY });
  const taskQueue = 'older-version';
  const workerConnection = await NativeConnection.connect({ address });
  const connection = await Connection.connect({ address });
  try {
    const worker = await Worker.create({
      connection: workerConnection,
      namespace: 'default',
      taskQueue,
      workflowBundle: await bundleWorkflows({ path: resolve('tests/fixtures/replay-changed/workflows.ts') }),
      dataConverter: converter,
    });
    const client = new Client({ connection, dataConverter: converter });
    const id = () => randomUUID();
    const input: StartLeaseUpInput = { applicationId: id(), householdId: id(), opportunityId: id(), organizationId: id(), applicantUserId: id(), householdSize: 2, householdIncome: 40_000 };
    const workflowId = `older-version-${input.applicationId}`;
    await worker.runUntil(async () => {
      const handle = await client.workflow.start('leaseUpApplication', { workflowId, taskQueue, args: [input] });
      await eventually(async () => (await handle.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes), 60_000);
    });
    return workflowId;
  } finally {
    await connection.close();
    await workerConnection.close();
  }
}

/**
 * `npm start` as a newcomer runs it: the embedded default with its own PostgreSQL, Temporal dev
 * server (and Web UI), worker and API. Ctrl-C must stop every process, and a second start must keep
 * the data of the first, and say in one line when that data holds runs this version cannot continue.
 */
describe('embedded start (npm start)', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-start-'));
  // Left 0700 as `npm start` makes `.data`: run as root, PostgreSQL's own user must still reach its folder.
  const ports = { PORT: await freePort(), PG_PORT: await freePort(), TEMPORAL_PORT: await freePort(), TEMPORAL_UI_PORT: await freePort() };
  const base = `http://127.0.0.1:${ports.PORT}`;
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  async function start(): Promise<{ child: ChildProcess; output: () => string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    for (const key of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'JWT_SECRET', 'DATA_ENCRYPTION_KEY', 'BLOB_DRIVER', 'NODE_ENV', 'PORTAL_SECRET_LEDGER']) delete env[key];
    for (const [key, value] of Object.entries(ports)) env[key] = String(value);
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`start exited early:\n${output}`);
      const ready = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
      if (ready) return { child, output: () => output };
      if (Date.now() > deadline) throw new Error(`not ready in time:\n${output}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  async function stop(child: ChildProcess): Promise<void> {
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    // A terminal's Ctrl-C reaches npm and this process alike, so the signal can arrive twice.
    child.kill('SIGINT');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const port of Object.values(ports)) expect(await isPortOpen(port), `port ${port} still open`).toBe(false);
  }

  const json = async (url: string, init?: RequestInit) => (await fetch(`${base}${url}`, init)).json();
  const login = async () => {
    const account = demo.accounts.find((a) => a.role === 'User')!;
    const body = await json('/api/Account/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: account.username, password: account.password }) });
    return { authorization: `Bearer ${body.data.accessToken}` };
  };

  it('serves the API, the web app and the Temporal Web UI, stops cleanly, and keeps data across a restart', async () => {
    const first = await start();
    const opportunities = await json('/api/Opportunity/published-opportunities');
    expect(opportunities.status).toBe(200);
    expect(opportunities.data.map((o: { kind: string }) => o.kind).sort()).toEqual(['ownership', 'rental', 'rental', 'rental']); // three opportunities and the demo lottery
    const page = await fetch(`${base}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(`http://127.0.0.1:${ports.TEMPORAL_UI_PORT}/`)).status).toBe(200);

    // A first-come opportunity (the demo lottery's applications are closed: applying there is refused).
    const firstCome = opportunities.data.find((o: { name: string }) => o.name !== 'Mott Haven Lottery');
    const headers = { ...(await login()), 'content-type': 'application/json' };
    const applied = await json('/api/LeaseUpApplication/apply', {
      method: 'POST',
      headers,
      body: JSON.stringify({ opportunityId: firstCome.id, householdSize: 2, householdIncome: 50_000, agreeToTerms: true }),
    });
    expect(applied.status).toBe(201);
    const stale = await startRunOfOlderCode(`127.0.0.1:${ports.TEMPORAL_PORT}`, dataDir);
    await stop(first.child);
    // A quiet terminal: services and addresses there, request logs in the data folder.
    expect(first.output()).toContain(`portal on http://localhost:${ports.PORT}`);
    // The embedded start sends no text to a phone, and says where they go instead.
    expect(first.output()).toContain('text messages: not sent to phones; each is written to');
    expect(first.output()).not.toContain('request completed');
    const apiLog = await readFile(join(dataDir, 'logs', 'api.log'), 'utf8');
    expect(apiLog).toContain('"msg":"request completed"');
    expect(apiLog).toContain('/api/LeaseUpApplication/apply');

    const second = await start();
    expect(second.output()).not.toContain('seeded demo data');
    // The open runs were replayed before the worker started: the first start's (the case applied for,
    // the lottery, the recertification sweep) replay; the older code's run does not, and one line says
    // so and how to start afresh, and the portal runs all the same.
    const said = second.output().split('\n').filter((line) => line.includes('older version'));
    expect(said).toEqual([
      `[portal] the data in ${dataDir} holds 1 workflow run(s) started by an older version of the portal, which this version cannot continue ` +
        `(details: ${join(dataDir, 'logs', 'replay-check.log')}); to start afresh with new demo data: Ctrl-C, delete ${dataDir}, then npm start again`,
    ]);
    expect(first.output()).not.toContain('older version');
    const report = await readFile(join(dataDir, 'logs', 'replay-check.log'), 'utf8');
    expect(report).toMatch(new RegExp(`FAILED leaseUpApplication workflow ${stale} `));
    expect(report).toMatch(/leaseUpApplication\s+2 replayed, 1 FAILED/);
    expect((await json('/api/Opportunity/published-opportunities')).data).toHaveLength(4);
    const mine = await json(`/api/LeaseUpApplication/getDetailsById/${applied.data.applicationId}`, { headers: await login() });
    expect(mine.data.currentStep).toBe('documentation_review');
    await stop(second.child);
  }, 700_000);
});
