/**
 * The bench's own stack, on free ports, from the same parts the tests use (tests/helpers/services.ts:
 * embedded PostgreSQL, Temporal dev server, MinIO), with the worker and the API as separate
 * processes started from their own entry points, as `npm start` and production run them, so each
 * process's memory can be read. A bare worker (tests/bench/bare-worker.ts) runs beside them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3BlobStore, EncryptingBlobStore } from '../../infra/blobs';
import { loadConfig, type Config } from '../../infra/config';
import { keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { createDb, type Db } from '../../infra/db/database';
import { migrateToLatest } from '../../infra/db/migrate';
import { waitForPort } from '../../infra/embedded';
import { seedDemoData } from '../../infra/seed';
import { createTemporalClient } from '../../infra/temporal/connection';
import { freePort, startServices, type Services } from '../helpers/services';
import type { Client } from '@temporalio/client';

export const BARE_TASK_QUEUE = 'bench-bare';

/** A child process of the stack: its pid, and whether it died while the bench still needed it. */
export interface Part {
  name: string;
  pid: () => number | undefined;
  /** Exits seen while the bench ran (a worker out of memory shows here); each was restarted. */
  crashes: string[];
  stop(): Promise<void>;
}

export interface BenchStack {
  root: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  db: Db;
  temporal: Client;
  baseUrl: string;
  services: Services;
  worker: Part;
  api: Part;
  bare: Part;
  close(keep: boolean): Promise<void>;
}

const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);

/** A node entry point run as its own process, restarted when it dies (as `npm start` would). */
async function startPart(name: string, script: string, env: NodeJS.ProcessEnv, logFile: string, ready: () => Promise<void>): Promise<Part> {
  const log = createWriteStream(logFile, { flags: 'a' });
  let child: ChildProcess;
  let stopping = false;
  const crashes: string[] = [];
  const launch = () => {
    // BENCH_CPU_PROFILE=<folder>: each part writes a V8 CPU profile there when it stops (open in Chrome's DevTools).
    const profile = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_CPU_PROFILE, name.replace(/\W+/g, '-'))}`] : [];
    child = spawn(process.execPath, [...profile, '--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once('exit', (code, signal) => {
      if (stopping) return;
      crashes.push(`${signal ?? `code ${code}`} at ${new Date().toISOString()}`);
      say(`${name} exited (${signal ?? `code ${code}`}), restarting; see ${logFile}`);
      setTimeout(launch, 1000);
    });
  };
  launch();
  await ready();
  return {
    name,
    pid: () => child.pid,
    crashes,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}

/** Waits for a line in a part's log (the worker says when it polls). */
async function waitForLog(file: string, pattern: RegExp, timeoutMs = 120_000): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (pattern.test(text)) return;
    if (Date.now() > deadline) throw new Error(`no ${pattern} in ${file} within ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `extraEnv`: more of the API's and the worker's environment (the dashboard phase's feed sources). */
export async function startBenchStack(extraEnv: Record<string, string> = {}): Promise<BenchStack> {
  const root = await mkdtemp(join(tmpdir(), 'portal-bench-'));
  say(`data folder ${root}`);
  const services = await startServices(root);
  await services.postgres.createDatabase('portal_bench');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: services.postgres.url('portal_bench'),
    TEMPORAL_ADDRESS: services.temporalAddress,
    TEMPORAL_TASK_QUEUE: 'bench-portal',
    BLOB_DRIVER: 's3',
    S3_ENDPOINT: services.s3.endpoint,
    S3_BUCKET: 'portal-bench',
    S3_ACCESS_KEY_ID: services.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: services.s3.secretAccessKey,
    S3_REGION: services.s3.region,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: root,
    WEB_DIST: 'web/dist',
    BARE_TASK_QUEUE,
    ...extraEnv,
  };
  const config = loadConfig(env);
  useDataKeys(keyRingFromConfig(config));
  const db = createDb({ ...config, PG_POOL_MAX: 8 });
  await migrateToLatest(db);
  const s3 = new S3BlobStore({ bucket: config.S3_BUCKET!, region: config.S3_REGION, endpoint: config.S3_ENDPOINT, accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY, forcePathStyle: true });
  await s3.ensureBucket();
  await seedDemoData(db, new Date(), { blobs: new EncryptingBlobStore(s3, keyRingFromConfig(config)) });
  s3.destroy();
  const temporal = await createTemporalClient(config);

  const logs = join(root, 'logs');
  await mkdir(logs, { recursive: true });
  const workerLog = join(logs, 'worker.ndjson');
  const worker = await startPart('worker', 'worker/main.ts', env, workerLog, () => waitForLog(workerLog, /worker started/));
  const api = await startPart('api', 'api/main.ts', env, join(logs, 'api.ndjson'), () => waitForPort(port, '127.0.0.1', 120_000));
  const bareLog = join(logs, 'bare-worker.log');
  const bare = await startPart('bare worker', 'tests/bench/bare-worker.ts', env, bareLog, () => waitForLog(bareLog, /bare worker polling/));
  say(`stack up: API ${port}, Temporal ${services.temporalAddress}, PostgreSQL ${services.postgres.url('portal_bench').replace(/\/\/[^@]+@/, '//')}`);

  return {
    root,
    config,
    env,
    db,
    temporal,
    baseUrl: `http://127.0.0.1:${port}`,
    services,
    worker,
    api,
    bare,
    async close(keep: boolean) {
      for (const part of [api, bare, worker]) await part.stop().catch(() => undefined);
      await temporal.connection.close().catch(() => undefined);
      await db.destroy().catch(() => undefined);
      await services.stop().catch(() => undefined);
      if (keep) say(`data kept in ${root}`);
      else await rm(root, { recursive: true, force: true });
    },
  };
}
