import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Client } from '@temporalio/client';
import { inject } from 'vitest';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../api/app';
import { EncryptingBlobStore, S3BlobStore, type BlobStore } from '../../infra/blobs';
import { keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { loadConfig, type Config } from '../../infra/config';
import { createDb, type Db } from '../../infra/db/database';
import { seedDemoData } from '../../infra/seed';
import { createTemporalClient } from '../../infra/temporal/connection';
import { createPortalWorker } from '../../worker/create-worker';
import demo from '../../infra/demo-accounts.json' with { type: 'json' };

/**
 * Every test stack writes its API log (level info, as in production) to a file under
 * tests/.artifacts/logs/, and the secrets the product hands out to a ledger beside it; after the
 * whole run, tests/run.mjs scans the logs for those secrets (tests/log-scan.mjs).
 */
export const LOG_DIR = resolve('tests', '.artifacts', 'logs');
mkdirSync(LOG_DIR, { recursive: true });
process.env.PORTAL_SECRET_LEDGER ??= join(LOG_DIR, `secrets-${process.pid}.ndjson`);
let stackCount = 0;

/** A fresh database for one test file, copied from the migrated template (fast, isolated). */
export async function createTestDatabase(): Promise<{ db: Db; url: string; name: string }> {
  const name = `portal_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${inject('templateDatabase')}"`);
  } finally {
    await admin.end();
  }
  const url = inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`);
  return { db: createDb({ DATABASE_URL: url, PG_POOL_MAX: 5, PG_STATEMENT_TIMEOUT_MS: 30_000, PG_SSL: false }), url, name };
}

/** Configuration of the real stack for one test file: its own database, task queue and bucket. */
export function testConfig(databaseUrl: string, overrides: Record<string, string> = {}): Config {
  const s3 = inject('s3');
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    BLOB_DRIVER: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: `portal-${randomUUID().slice(0, 8)}`,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_REGION: s3.region,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    WEB_DIST: 'web/dist',
    ...overrides,
  });
}

export interface Stack {
  config: Config;
  db: Db;
  app: FastifyInstance;
  temporal: Client;
  blobs: BlobStore;
  /** Base URL when started with `listen: true` (browser tests). */
  baseUrl: string;
  /** The file this stack's API log lines go to (JSON lines, level info). */
  logFile: string;
  close(): Promise<void>;
}

/**
 * The whole product in-process on real services: API (Fastify), worker, PostgreSQL, Temporal, S3.
 * Demo data is seeded so tests sign in with the accounts of infra/demo-accounts.json.
 */
export async function startStack(options: { listen?: boolean; seed?: boolean; worker?: boolean; config?: Record<string, string>; /** Extra environment (e.g. TRANSLATE_URL). */ env?: Record<string, string> } = {}): Promise<Stack> {
  const { db, url } = await createTestDatabase();
  // config / env: extra environment for this stack (feed URLs, TRANSLATE_URL).
  const config = testConfig(url, { ...options.config, ...options.env });
  useDataKeys(keyRingFromConfig(config));
  const s3 = new S3BlobStore({
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
  });
  await s3.ensureBucket();
  // As in production (infra/blobs createBlobStore): the bucket only ever holds sealed bytes.
  const blobs = new EncryptingBlobStore(s3, keyRingFromConfig(config));
  if (options.seed !== false) await seedDemoData(db, new Date(), { blobs });
  const temporal = await createTemporalClient(config);
  // worker: false leaves the task queue to a worker the test runs itself (its own process).
  const { worker, connection } = options.worker === false ? { worker: null, connection: null } : await createPortalWorker(config, { db, blobs }, { workflowBundle: { codePath: inject('workflowBundlePath') }, workflowsPath: undefined, bundlerOptions: undefined });
  const running = worker?.run();
  const logFile = join(LOG_DIR, `api-${process.pid}-${++stackCount}.ndjson`);
  const logStream = pino.destination({ dest: logFile, sync: true, append: true, mkdir: true });
  const app = await buildApp({ config: { ...config, LOG_LEVEL: 'info' }, db, temporal, blobs, logStream });
  let baseUrl = '';
  if (options.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  } else {
    await app.ready();
  }
  return {
    config,
    db,
    app,
    temporal,
    blobs,
    baseUrl,
    logFile,
    async close() {
      await app.close();
      worker?.shutdown();
      await running;
      await connection?.close();
      await temporal.connection.close();
      s3.destroy();
      logStream.end();
      await db.destroy();
    },
  };
}

export type DemoRole = 'User' | 'Tenant' | 'Manager' | 'HousingAmbassador' | 'Admin';

export function demoAccount(role: DemoRole) {
  const account = demo.accounts.find((a) => a.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  return account;
}

/** Signs in through the real login route and returns the bearer header. */
export async function signIn(app: FastifyInstance, role: DemoRole): Promise<{ authorization: string; userId: string }> {
  const { username, password } = demoAccount(role);
  const response = await app.inject({ method: 'POST', url: '/api/Account/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login as ${role} failed: ${response.body}`);
  const { data } = response.json();
  return { authorization: `Bearer ${data.accessToken}`, userId: data.userId };
}

/**
 * Polls until `check` returns a value (read models are written asynchronously by activities). A
 * wait that gives up fails the test naming what it waited for: `what`, else the check's own source.
 */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, what?: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s in vain for: ${what ?? check.toString().replace(/\s+/g, ' ').slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
