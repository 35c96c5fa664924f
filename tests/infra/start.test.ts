import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPortOpen } from '../../infra/embedded';
import { freePort } from '../setup/global';
import demo from '../../infra/demo-accounts.json' with { type: 'json' };

/**
 * `npm start` as a newcomer runs it: the embedded default with its own PostgreSQL, Temporal dev
 * server (and Web UI), worker and API. Ctrl-C must stop every process, and a second start must keep
 * the data of the first.
 */
describe('embedded start (npm start)', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-start-'));
  // Left 0700 as `npm start` makes `.data`: run as root, PostgreSQL's own user must still reach its folder.
  const ports = { PORT: await freePort(), PG_PORT: await freePort(), TEMPORAL_PORT: await freePort(), TEMPORAL_UI_PORT: await freePort() };
  const base = `http://127.0.0.1:${ports.PORT}`;
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  async function start(): Promise<{ child: ChildProcess; output: () => string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    for (const key of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'JWT_SECRET', 'DATA_ENCRYPTION_KEY', 'BLOB_DRIVER', 'NODE_ENV']) delete env[key];
    for (const [key, value] of Object.entries(ports)) env[key] = String(value);
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 150_000;
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
    await stop(first.child);
    // A quiet terminal (issue 15): services and addresses there, request logs in the data folder.
    expect(first.output()).toContain(`portal on http://localhost:${ports.PORT}`);
    expect(first.output()).not.toContain('request completed');
    const apiLog = await readFile(join(dataDir, 'logs', 'api.log'), 'utf8');
    expect(apiLog).toContain('"msg":"request completed"');
    expect(apiLog).toContain('/api/LeaseUpApplication/apply');

    const second = await start();
    expect(second.output()).not.toContain('seeded demo data');
    expect((await json('/api/Opportunity/published-opportunities')).data).toHaveLength(4);
    const mine = await json(`/api/LeaseUpApplication/getDetailsById/${applied.data.applicationId}`, { headers: await login() });
    expect(mine.data.currentStep).toBe('documentation_review');
    await stop(second.child);
  }, 400_000);
});
