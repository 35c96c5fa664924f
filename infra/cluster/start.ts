/**
 * `npm run start:cluster`: the production shape on this machine, with no external services. The
 * same supervisor as `npm start` (infra/supervisor.ts) runs, in this order:
 *   PostgreSQL (embedded) with the `portal`, `temporal` and `temporal_visibility` databases;
 *   the Temporal schemas, created or upgraded by the server's sql tool;
 *   the Temporal server (not the dev server) on infra/production/temporal-server.yaml;
 *   the namespace and its search attributes (`npm run temporal:namespace` does the same anywhere);
 *   MinIO with server-side encryption, and an SMTP server as the mail sink;
 *   two workers on one task queue, registered as one build of the worker deployment, made current;
 *   two API replicas (PORT+10, PORT+11) behind HAProxy on PORT (infra/production/haproxy.cfg).
 * The API replicas and the workers run on infra/production/config.yaml with this machine's addresses
 * and secrets (infra/cluster/environment.ts). Ctrl-C stops everything in the reverse order; data is
 * kept in `.data-cluster/` (CLUSTER_DATA_DIR) for the next start.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { createBlobStore, createRawBlobStore, S3BlobStore } from '../blobs';
import { loadConfig, runMain } from '../config';
import { keyRingFromConfig } from '../crypto';
import { useDataKeys } from '../data-keys';
import { assertDatabaseReachable, createDb } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { embeddedPostgresUrl, startEmbeddedPostgres, waitForPort } from '../embedded';
import { seedDemoData } from '../seed';
import { exitOf, nodeProcess, Parts, programProcess } from '../supervisor';
import { makeBuildCurrent } from '../temporal/deployment';
import { ensureNamespace } from '../temporal/namespace';
import { findMinio } from '../tools/minio';
import { findTemporalServer, findTemporalSqlTool, findTemporalUiServer } from '../tools/temporal-server';
import { checkoutBuildId, clusterAppEnvironment, minioSecrets } from './environment';
import { startMailSink } from './mail-sink';
import { startSmsSink } from './sms-sink';
import { clusterPorts } from './ports';
import { applyTemporalSchemas, temporalServerProcess } from './temporal';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const DATA_DIR = resolve(process.env.CLUSTER_DATA_DIR ?? '.data-cluster');
const LOG_DIR = join(DATA_DIR, 'logs');
const say = (line: string) => process.stdout.write(`[cluster] ${line}\n`);
const parts = new Parts(say);

/** Until `url` answers 200: the API replica is ready, or HAProxy has one in rotation. */
async function waitUntilReady(url: string, what: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${timeoutMs / 1000}s (${url}: ${last})`);
    await new Promise((done) => setTimeout(done, 500));
  }
}

/** Reverse order of start: the APIs, the workers, Temporal, then the stores. */
const stopAll = (code: number): Promise<never> => parts.stopAndExit(code);

await runMain('start:cluster', async () => {
  const started = Date.now();
  await mkdir(DATA_DIR, { recursive: true, mode: 0o700 });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  const ports = clusterPorts(process.env);
  const [temporalServer, sqlTool, uiServer, minio] = await Promise.all([findTemporalServer(), findTemporalSqlTool(), findTemporalUiServer(), findMinio()]);

  say(`starting PostgreSQL (embedded, 127.0.0.1:${ports.postgres})...`);
  await parts.start('postgres', async () => {
    const handle = await startEmbeddedPostgres(join(DATA_DIR, 'postgres'), ports.postgres);
    for (const name of ['portal', 'temporal', 'temporal_visibility']) await handle.createDatabase(name);
    return { pid: handle.process.pid, exited: exitOf(handle.process), stop: () => handle.stop() };
  });
  const pgUrl = new URL(embeddedPostgresUrl(ports.postgres, 'portal'));
  const temporalDb = { host: '127.0.0.1', port: ports.postgres, user: decodeURIComponent(pgUrl.username), password: decodeURIComponent(pgUrl.password) };

  say('applying the Temporal schemas (temporal, temporal_visibility)...');
  await applyTemporalSchemas(sqlTool, temporalDb, LOG_DIR);
  say(`starting the Temporal server (PostgreSQL persistence and visibility, 127.0.0.1:${ports.temporal})...`);
  await parts.start('temporal', temporalServerProcess(temporalServer, { root: ROOT, ports, db: temporalDb, logDir: LOG_DIR }));

  const minioCredentials = await minioSecrets(DATA_DIR);
  const mail = await startMailSink(join(DATA_DIR, 'mail'), ports.smtp);
  const env = await clusterAppEnvironment(process.env, DATA_DIR, ports);
  const sms = await startSmsSink(join(DATA_DIR, 'sms'), ports.sms, { sid: env.TWILIO_ACCOUNT_SID!, token: env.TWILIO_AUTH_TOKEN! });
  // This checkout's build of the worker deployment (unless one is named), which the workers register;
  // the API replicas run without it, as in production.
  const buildId = env.WORKER_BUILD_ID ?? checkoutBuildId(ROOT);
  // Validate now, so a bad value stops start-up with one line before anything else runs.
  const config = loadConfig(env);

  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  try {
    const namespace = await ensureNamespace(connection, config.TEMPORAL_NAMESPACE);
    say(`namespace ${config.TEMPORAL_NAMESPACE} ${namespace.created ? 'registered' : 'present'} with its search attributes`);
  } finally {
    await connection.close();
  }

  await parts.start(
    'temporal-ui',
    programProcess('temporal-ui', uiServer, ['--root', ROOT, '--config', 'infra/production', '--env', 'temporal-ui', 'start'], {
      logDir: LOG_DIR,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: config.TEMPORAL_ADDRESS,
        TEMPORAL_UI_PORT: String(ports.temporalUi),
        TEMPORAL_NAMESPACE: config.TEMPORAL_NAMESPACE,
        PORTAL_CODEC_URL: `http://localhost:${ports.web}/codec`,
      },
    }),
  );

  say(`starting MinIO (server-side encryption, 127.0.0.1:${ports.s3}) and the mail sink (SMTP, 127.0.0.1:${ports.smtp})...`);
  await parts.start('mail', async () => ({ pid: process.pid, exited: new Promise<string>(() => {}), stop: () => mail.stop() }));
  await parts.start('sms', async () => ({ pid: process.pid, exited: new Promise<string>(() => {}), stop: () => sms.stop() }));
  await parts.start(
    'minio',
    programProcess('minio', minio, ['server', join(DATA_DIR, 'minio'), '--address', `127.0.0.1:${ports.s3}`, '--console-address', `127.0.0.1:${ports.s3Console}`, '--quiet'], {
      logDir: LOG_DIR,
      env: { ...process.env, MINIO_ROOT_USER: minioCredentials.user, MINIO_ROOT_PASSWORD: minioCredentials.password, MINIO_BROWSER: 'off', MINIO_KMS_SECRET_KEY: minioCredentials.kmsKey },
    }),
  );
  await waitForPort(ports.s3);
  const raw = createRawBlobStore(config);
  // MinIO opens its port before it serves requests; the bucket is made once it does.
  for (let attempt = 0; ; attempt++) {
    try {
      if (raw instanceof S3BlobStore) await raw.ensureBucket();
      break;
    } catch (error) {
      if (attempt >= 120) throw new Error(`MinIO did not serve within a minute: ${String(error)}`, { cause: error });
      await new Promise((done) => setTimeout(done, 500));
    }
  }

  const db = createDb(config);
  await assertDatabaseReachable(db, config.DATABASE_URL);
  await migrateToLatest(db);
  useDataKeys(keyRingFromConfig(config));
  if (await seedDemoData(db, new Date(), { blobs: createBlobStore(config), lottery: true })) say('seeded demo data (accounts in infra/demo-accounts.json)');
  await db.destroy();

  for (const [i, metricsPort] of ports.workerMetrics.entries()) {
    const name = `worker-${i + 1}`;
    const workerEnv = { ...env, WORKER_BUILD_ID: buildId, WORKER_METRICS_ADDRESS: `127.0.0.1:${metricsPort}` };
    await parts.start(name, nodeProcess(name, 'worker/main.ts', workerEnv, { logDir: LOG_DIR, nodeFlags: [`--max-old-space-size=${config.WORKER_HEAP_MB}`] }), 'workers');
  }
  if (config.WORKER_VERSIONING) {
    const versions = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    try {
      const before = await makeBuildCurrent(versions, config.TEMPORAL_NAMESPACE, config.WORKER_DEPLOYMENT_NAME, buildId);
      say(before === buildId ? `worker build ${buildId} is current` : `worker build ${buildId} made current${before ? ` (was ${before})` : ''}`);
    } finally {
      await versions.close();
    }
  }

  for (const [i, port] of ports.api.entries()) {
    const name = `api-${i + 1}`;
    await parts.start(name, nodeProcess(name, 'api/main.ts', { ...env, WORKER_BUILD_ID: undefined, PORT: String(port), METRICS_PORT: String(ports.apiMetrics[i]) }, { logDir: LOG_DIR }), 'api');
  }
  await Promise.all(ports.api.map((port, i) => waitUntilReady(`http://127.0.0.1:${port}/readyz`, `api-${i + 1}`)));
  await parts.start(
    'haproxy',
    programProcess('haproxy', 'haproxy', ['-W', '-db', '-f', join(ROOT, 'infra/production/haproxy.cfg')], {
      logDir: LOG_DIR,
      env: {
        ...process.env,
        PORTAL_BIND: `127.0.0.1:${ports.web}`,
        API_REPLICA_1: `127.0.0.1:${ports.api[0]}`,
        API_REPLICA_2: `127.0.0.1:${ports.api[1]}`,
        HAPROXY_METRICS: `127.0.0.1:${ports.haproxyMetrics}`,
      },
    }),
  );
  await waitUntilReady(`http://127.0.0.1:${ports.temporalUi}/`, 'the Temporal Web UI');
  // Both replicas answered ready above; HAProxy now serves through them.
  await waitUntilReady(`http://127.0.0.1:${ports.web}/readyz`, 'HAProxy');

  say(`portal on http://localhost:${ports.web} (HAProxy) -> API replicas 127.0.0.1:${ports.api[0]} and :${ports.api[1]}`);
  say(`Temporal server 127.0.0.1:${ports.temporal} (namespace ${config.TEMPORAL_NAMESPACE}, PostgreSQL 127.0.0.1:${ports.postgres}); workers: 2 on task queue ${config.TEMPORAL_TASK_QUEUE}, build ${buildId}`);
  say(`Temporal Web UI http://localhost:${ports.temporalUi} (payloads decoded through http://localhost:${ports.web}/codec with an Admin's token, after POST /api/Operator/codec-reason for that sign-in)`);
  say(`MinIO http://127.0.0.1:${ports.s3} (bucket ${config.S3_BUCKET}); mail: SMTP 127.0.0.1:${ports.smtp} -> ${join(DATA_DIR, 'mail')}/`);
  say(`text messages: SMS provider API (Twilio's format) ${sms.url} -> ${join(DATA_DIR, 'sms')}/`);
  say(`metrics: API ${ports.apiMetrics.join(', ')}; workers ${ports.workerMetrics.join(', ')}; Temporal ${ports.temporalMetrics}; HAProxy ${ports.haproxyMetrics} (GET /metrics on 127.0.0.1)`);
  say(`logs: ${LOG_DIR}/  data: ${DATA_DIR}/  ready in ${Math.round((Date.now() - started) / 1000)}s  Ctrl-C stops`);
}, () => stopAll(1));
