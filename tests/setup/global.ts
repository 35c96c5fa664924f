/**
 * Real services for the whole test run, started once: PostgreSQL (the product's own embedded
 * start-up), a Temporal dev server (through @temporalio/testing with the CLI found or built by
 * infra/tools.ts) and MinIO as the S3-compatible server. Each test file makes its own database from a
 * migrated template, and its own task queue and IDs, so files run in parallel without sharing state.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../infra/db/database';
import { migrateToLatest } from '../../infra/db/migrate';
import { startEmbeddedPostgres, waitForPort } from '../../infra/embedded';
import { findMinio, findTemporalCli } from '../../infra/tools';
import { S3BlobStore } from '../../infra/blobs';
import { workflowsPath } from '../../worker/create-worker';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    templateDatabase: string;
    temporalAddress: string;
    s3: { endpoint: string; accessKeyId: string; secretAccessKey: string; region: string };
    workflowBundlePath: string;
    /** MinIO's data folder: tests look for plain bytes in it. */
    minioDataDir: string;
  }
}

/**
 * A free port for a server of the tests, chosen below the kernel's ephemeral range (32768+), so an
 * outgoing connection cannot take it between this check and the server binding it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((done) => {
      const server = createServer();
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
    if (free) return port;
  }
}

export default async function setup(project: TestProject) {
  const root = await mkdtemp(join(tmpdir(), 'portal-test-'));
  await chmod(root, 0o755); // PostgreSQL runs as the postgres user when tests run as root
  const [temporalCli, minio] = await Promise.all([findTemporalCli(), findMinio()]);

  const postgres = await startEmbeddedPostgres(join(root, 'pg', 'data'), await freePort());
  await postgres.createDatabase('portal_template');
  const templateDb = createDb({ DATABASE_URL: postgres.url('portal_template'), PG_POOL_MAX: 2, PG_STATEMENT_TIMEOUT_MS: 30_000, PG_SSL: false });
  await migrateToLatest(templateDb);
  await templateDb.destroy();

  const temporal = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: temporalCli }, ip: '127.0.0.1', log: { format: 'pretty', level: 'error' } },
  });

  const s3Port = await freePort();
  const s3 = { endpoint: `http://127.0.0.1:${s3Port}`, accessKeyId: 'portal-test', secretAccessKey: 'portal-test-secret', region: 'us-east-1' };
  await mkdir(join(root, 'minio'), { recursive: true });
  // A KMS key so MinIO honours server-side encryption (S3_SSE=AES256, the product's default), as S3 does.
  const kmsKey = `portal-test-key:${randomBytes(32).toString('base64')}`;
  const minioProcess = spawn(minio, ['server', join(root, 'minio'), '--address', `127.0.0.1:${s3Port}`, '--console-address', `127.0.0.1:${await freePort()}`, '--quiet'], {
    env: { ...process.env, MINIO_ROOT_USER: s3.accessKeyId, MINIO_ROOT_PASSWORD: s3.secretAccessKey, MINIO_BROWSER: 'off', MINIO_KMS_SECRET_KEY: kmsKey },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForPort(s3Port);
  // MinIO opens its port before it serves requests; wait until a bucket can be made.
  const probe = new S3BlobStore({ bucket: 'portal-probe', forcePathStyle: true, ...s3 });
  for (let attempt = 0; ; attempt++) {
    try {
      await probe.ensureBucket();
      break;
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  probe.destroy();

  // Bundle the workflows once for every test worker.
  const bundleDir = join(root, 'bundle');
  await mkdir(bundleDir, { recursive: true });
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } });
  const workflowBundlePath = join(bundleDir, 'workflows.js');
  await writeFile(workflowBundlePath, code);

  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('templateDatabase', 'portal_template');
  project.provide('temporalAddress', temporal.address);
  project.provide('s3', s3);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('minioDataDir', join(root, 'minio'));

  return async () => {
    minioProcess.kill('SIGTERM');
    await temporal.teardown();
    await postgres.stop();
    await rm(root, { recursive: true, force: true });
  };
}
