import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPortOpen } from '../../infra/embedded';
import { freePort } from '../setup/global';
import demo from '../../infra/demo-accounts.json' with { type: 'json' };

/**
 * `npm start` as a supervisor. A killed worker and API come back on their own (no Ctrl-C);
 * a stalled Temporal makes actions answer 503 with Retry-After (the API's call guard: a frozen server
 * without it would never answer); a killed Temporal dev server is started again; only Ctrl-C stops
 * everything. Each wait is for an event (a line of the supervisor, an answer of the product) and
 * gives up only after a generous time, saying what it waited for: on a loaded 2-core machine a
 * restart's duration is the machine's, not the supervisor's (its back-off is in the lines it prints).
 */
describe('npm start supervises its parts', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-supervise-'));
  await chmod(dataDir, 0o755);
  const ports = { PORT: await freePort(), PG_PORT: await freePort(), TEMPORAL_PORT: await freePort(), TEMPORAL_UI_PORT: await freePort() };
  const base = `http://127.0.0.1:${ports.PORT}`;
  let child: ChildProcess | undefined;
  let output = '';
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGINT');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The pid of the part's latest start, as the supervisor says it. */
  const pidOf = (name: string) => {
    const match = [...output.matchAll(new RegExp(`\\[portal\\] ${name} (?:re)?started \\(pid (\\d+)\\)`, 'g'))].at(-1);
    if (!match) throw new Error(`no pid for ${name} in:\n${output}`);
    return Number(match[1]);
  };
  const waitFor = async <T>(what: string, check: () => Promise<T | false>, timeoutMs: number): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child?.exitCode !== null && child?.exitCode !== undefined) throw new Error(`npm start exited:\n${output}`);
      const value = await check().catch(() => false as const);
      if (value !== false) return value;
      if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs / 1000}s:\n${output.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const login = async () => {
    const account = demo.accounts.find((a) => a.role === 'User')!;
    const r = await fetch(`${base}/api/Account/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: account.username, password: account.password }), signal: AbortSignal.timeout(5000) });
    return r.status === 200 ? ((await r.json()) as { data: { accessToken: string } }).data.accessToken : false;
  };
  const ready = async () => (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) })).status === 200 || false;

  it('restarts a killed worker, API and Temporal dev server, answers 503 quickly while Temporal stalls, and stops only on Ctrl-C', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    for (const key of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'JWT_SECRET', 'DATA_ENCRYPTION_KEY', 'BLOB_DRIVER', 'NODE_ENV', 'PORTAL_SECRET_LEDGER']) delete env[key];
    for (const [key, value] of Object.entries(ports)) env[key] = String(value);
    child = spawn(process.execPath, ['--import', 'tsx', 'infra/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await waitFor('first start', ready, 240_000);

    // kill -9 of the worker and the API: both come back, and the product answers again.
    const [workerPid, apiPid] = [pidOf('worker'), pidOf('api')];
    process.kill(workerPid, 'SIGKILL');
    process.kill(apiPid, 'SIGKILL');
    await waitFor('the API restarted', async () => output.includes('api restarted') || false, 120_000);
    const token = await waitFor('a sign-in after the API was killed', login, 120_000);
    await waitFor('the worker restarted', async () => output.includes('worker restarted') || false, 120_000);
    expect(pidOf('api')).not.toBe(apiPid);
    expect(pidOf('worker')).not.toBe(workerPid);
    expect(output).toMatch(/api exited \(SIGKILL\); restarting in \d+s/);

    // Temporal stalled: an action answers 503 with Retry-After; /readyz 503.
    const opportunities = (await (await fetch(`${base}/api/Opportunity/published-opportunities`)).json()) as { data: { id: string; name: string }[] };
    // A first-come opportunity (applying to the demo lottery after its deadline is refused without Temporal).
    opportunities.data = opportunities.data.filter((o) => o.name !== 'Mott Haven Lottery');
    const temporalPid = pidOf('temporal');
    process.kill(temporalPid, 'SIGSTOP');
    try {
      const r = await fetch(`${base}/api/LeaseUpApplication/apply`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ opportunityId: opportunities.data[0]!.id, householdSize: 2, householdIncome: 50_000, agreeToTerms: true }),
      });
      expect(r.status).toBe(503);
      expect(((await r.json()) as { data: { code: string } }).data.code).toBe('serviceUnavailable');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      const readiness = await fetch(`${base}/readyz`);
      expect(readiness.status).toBe(503);
      expect(((await readiness.json()) as { data: { temporal: string } }).data.temporal).toBe('unreachable');
    } finally {
      process.kill(temporalPid, 'SIGCONT');
    }

    // Temporal killed: the supervisor starts it again and the product is ready again.
    process.kill(temporalPid, 'SIGKILL');
    await waitFor('Temporal restarted', async () => output.includes('temporal restarted') || false, 60_000);
    await waitFor('ready after Temporal came back', ready, 90_000);
    expect(child.exitCode).toBeNull();

    // Only Ctrl-C stops it all.
    const exited = new Promise<number | null>((done) => child!.once('exit', (code) => done(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const port of Object.values(ports)) expect(await isPortOpen(port), `port ${port} still open`).toBe(false);
  }, 600_000);
});
