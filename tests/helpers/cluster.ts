/**
 * `npm run start:cluster` as the cluster tests run it: the real entry point (infra/cluster/start.ts)
 * as a child process on free ports with its data in a folder of the test's, ready when it prints its
 * "ready" line; stopped as a person stops it, with Ctrl-C (SIGINT).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { clusterAppEnvironment } from '../../infra/cluster/environment';
import { clusterPorts, type ClusterPorts } from '../../infra/cluster/ports';
import { bundleWorkflows } from '../../worker/create-worker';

const ROOT = new URL('../../', import.meta.url).pathname;

async function isFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** The environment of a cluster whose every port is free: one block of 80 ports below 32768. */
export async function freeClusterEnv(): Promise<Record<string, string>> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 120) * 100;
    const env = {
      PORT: String(base),
      PG_PORT: String(base + 20),
      TEMPORAL_PORT: String(base + 30),
      TEMPORAL_MEMBERSHIP_PORT: String(base + 50),
      CLUSTER_METRICS_PORT: String(base + 60),
      S3_PORT: String(base + 70),
      S3_CONSOLE_PORT: String(base + 71),
      SMTP_PORT: String(base + 72),
      TEMPORAL_UI_PORT: String(base + 73),
      SMS_SINK_PORT: String(base + 74),
    };
    const ports = clusterPorts(env);
    const all = [ports.web, ...ports.api, ports.postgres, ports.temporal, ports.temporal + 1, ports.temporal + 2, ports.temporal + 6, ports.temporal + 10, ports.temporalMembership, ports.temporalMembership + 1, ports.temporalMembership + 2, ports.temporalMembership + 3, ports.temporalMetrics, ports.temporalUi, ports.s3, ports.s3Console, ports.smtp, ports.sms, ...ports.apiMetrics, ...ports.workerMetrics, ports.haproxyMetrics];
    if ((await Promise.all(all.map(isFree))).every(Boolean)) return env;
  }
}

export interface RunningCluster {
  ports: ClusterPorts;
  /** HAProxy: the portal's address. */
  baseUrl: string;
  replicaUrls: [string, string];
  temporalAddress: string;
  /** Everything the start printed so far. */
  output(): string;
  /** Ctrl-C; resolves once the start process has stopped every part and exited. */
  stop(): Promise<string>;
}

/** Waits for a line matching `pattern` in the process's output; gives up naming what it waited for. */
function waitForLine(child: ChildProcess, output: () => string, pattern: RegExp, what: string, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((done, fail) => {
    const check = () => {
      const match = pattern.exec(output());
      if (match) {
        cleanUp();
        done(match);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanUp();
      fail(new Error(`start:cluster exited (${signal ?? `code ${code}`}) before ${what}; its output:\n${output().slice(-4000)}`));
    };
    const timer = setTimeout(() => {
      cleanUp();
      fail(new Error(`start:cluster did not print ${what} within ${timeoutMs / 1000}s; its output:\n${output().slice(-4000)}`));
    }, timeoutMs);
    const cleanUp = () => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

/**
 * This process's environment for the cluster's processes, without the test run's secret ledger:
 * the cluster runs as production does, where the ledger is refused.
 */
export function clusterParentEnv(): NodeJS.ProcessEnv {
  const { PORTAL_SECRET_LEDGER: _ledger, ...rest } = process.env;
  return rest;
}

/** Starts the cluster with its data in `dataDir` (kept between starts) and waits until it serves. */
export async function startCluster(dataDir: string, env: Record<string, string>, extra: NodeJS.ProcessEnv = {}): Promise<RunningCluster & { startedInMs: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/cluster/start.ts'], {
    cwd: ROOT,
    env: { ...clusterParentEnv(), ...env, ...extra, CLUSTER_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const output = () => text;
  await waitForLine(child, output, /\[cluster\] logs: .* ready in \d+s/, 'its "ready" line', 600_000);
  const ports = clusterPorts(env);
  return {
    ports,
    startedInMs: Date.now() - started,
    baseUrl: `http://127.0.0.1:${ports.web}`,
    replicaUrls: [`http://127.0.0.1:${ports.api[0]}`, `http://127.0.0.1:${ports.api[1]}`],
    temporalAddress: `127.0.0.1:${ports.temporal}`,
    output,
    async stop() {
      if (child.exitCode !== null) return text;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGINT');
      await exited;
      return text;
    },
  };
}

/** A client connection to the cluster's Temporal frontend (the caller closes it). */
export function clusterConnection(cluster: RunningCluster): Promise<Connection> {
  return Connection.connect({ address: cluster.temporalAddress });
}

/** Signs in through `baseUrl` with a demo account; the answer's access token as an Authorization header. */
export async function signInOver(baseUrl: string, username: string, password: string): Promise<{ authorization: string; userId: string; role: string }> {
  const res = await fetch(`${baseUrl}/api/Account/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await res.json()) as { message: string; data: { userId: string; role: string; accessToken: string } };
  if (res.status !== 200) throw new Error(`signing in as ${username} through ${baseUrl} answered ${res.status}: ${body.message}`);
  return { authorization: `Bearer ${body.data.accessToken}`, userId: body.data.userId, role: body.data.role };
}

/** Workers of one build started beside the cluster's (the new build of a rolling upgrade), on its task queue. */
export async function startWorkers(dataDir: string, env: Record<string, string>, options: { buildId: string; bundlePath: string; count: number }): Promise<{ stop(): Promise<void> }> {
  const ports = clusterPorts(env);
  const base = await clusterAppEnvironment(clusterParentEnv(), dataDir, ports);
  const children: ChildProcess[] = [];
  for (let i = 0; i < options.count; i++) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      cwd: ROOT,
      env: { ...base, WORKER_BUILD_ID: options.buildId, WORKER_BUNDLE_PATH: options.bundlePath },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
  }
  return {
    async stop() {
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null) return;
          const exited = new Promise<void>((done) => child.once('exit', () => done()));
          child.kill('SIGTERM');
          await exited;
        }),
      );
    },
  };
}

/**
 * The workflow code of another build: a copy of workflows/ and domain/ with `change` applied to one
 * file, bundled as the worker bundles it. Kept under tests/.artifacts/ so the copy resolves the
 * repository's node_modules.
 */
export async function changedWorkflowBundle(name: string, file: string, change: (source: string) => string): Promise<string> {
  const dir = join(ROOT, 'tests', '.artifacts', 'cluster', name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await cp(join(ROOT, 'workflows'), join(dir, 'workflows'), { recursive: true });
  await cp(join(ROOT, 'domain'), join(dir, 'domain'), { recursive: true });
  await symlink(join(ROOT, 'activities'), join(dir, 'activities'));
  const target = join(dir, 'workflows', file);
  const before = await readFile(target, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the change to ${file} changed nothing`);
  await writeFile(target, after);
  const { code } = await bundleWorkflows({ path: join(dir, 'workflows', 'index.ts'), logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } });
  const bundlePath = join(dir, 'workflows.js');
  await writeFile(bundlePath, code);
  return bundlePath;
}

/** A command of the repository run against the cluster with its workers' environment: exit code and output. */
async function runAgainstCluster(dataDir: string, env: Record<string, string>, script: string, args: string[]): Promise<{ code: number; report: string }> {
  const ports = clusterPorts(env);
  const base = await clusterAppEnvironment(clusterParentEnv(), dataDir, ports);
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--address', `127.0.0.1:${ports.temporal}`, '--namespace', base.TEMPORAL_NAMESPACE!, ...args], { cwd: ROOT, env: base, stdio: ['ignore', 'pipe', 'pipe'] });
  let report = '';
  child.stdout!.on('data', (chunk: Buffer) => (report += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (report += chunk.toString()));
  const code = await new Promise<number>((done) => child.once('exit', (exitCode) => done(exitCode ?? 1)));
  return { code, report };
}

/** `npm run replay:check` of a bundle (null: this checkout's workflows) against the cluster's live histories: its exit code and report. */
export function replayCheck(dataDir: string, env: Record<string, string>, bundlePath: string | null, query: string): Promise<{ code: number; report: string }> {
  return runAgainstCluster(dataDir, env, 'worker/replay-check.ts', [...(bundlePath ? ['--bundle', bundlePath] : []), '--query', query]);
}

/** `npm run cluster:upgrade`: the replay check of a bundle, then (only if it passes) its build made current. */
export function clusterUpgrade(dataDir: string, env: Record<string, string>, buildId: string, bundlePath: string, query: string): Promise<{ code: number; report: string }> {
  return runAgainstCluster(dataDir, env, 'worker/upgrade.ts', ['--build-id', buildId, '--bundle', bundlePath, '--query', query]);
}
