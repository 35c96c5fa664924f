/**
 * The real services the tests run on, started on free ports under one folder: PostgreSQL (the
 * product's own embedded start-up), a Temporal dev server (through @temporalio/testing with the CLI
 * found or built by infra/tools/ and tests/setup/) and MinIO as the S3-compatible server. Used once per test run by
 * tests/setup/global.ts, and by `npm run bench` (tests/bench/) for its own stack.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { startEmbeddedPostgres, waitForPort, type EmbeddedPostgresHandle } from '../../infra/embedded';
import { findTemporalCli } from '../../infra/tools/temporal-cli';
import { findMinio } from '../../infra/tools/minio';
import { S3BlobStore } from '../../infra/blobs';
import { caseSearchAttributeKeys } from '../../infra/temporal/search-attributes';

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

export interface S3Endpoint {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface Services {
  postgres: EmbeddedPostgresHandle;
  temporalAddress: string;
  s3: S3Endpoint;
  /** MinIO's data folder: tests look for plain bytes in it. */
  minioDataDir: string;
  /** Process ids of the servers, so a caller can read their memory or CPU. */
  pids: { postgres?: number; minio?: number };
  stop(): Promise<void>;
}

/** Starts PostgreSQL, Temporal and MinIO with their data under `root` (a fresh folder). */
export async function startServices(root: string): Promise<Services> {
  await chmod(root, 0o755); // PostgreSQL runs as the postgres user when tests run as root
  const [temporalCli, minio] = await Promise.all([findTemporalCli(), findMinio()]);

  const postgres = await startEmbeddedPostgres(join(root, 'pg', 'data'), await freePort());
  const temporal = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: temporalCli }, ip: '127.0.0.1', log: { format: 'pretty', level: 'error' }, searchAttributes: caseSearchAttributeKeys() },
  });

  const s3Port = await freePort();
  const s3: S3Endpoint = { endpoint: `http://127.0.0.1:${s3Port}`, accessKeyId: 'portal-test', secretAccessKey: 'portal-test-secret', region: 'us-east-1' };
  const minioDataDir = join(root, 'minio');
  await mkdir(minioDataDir, { recursive: true });
  // A KMS key so MinIO honours server-side encryption (S3_SSE=AES256, the product's default), as S3 does.
  const kmsKey = `portal-test-key:${randomBytes(32).toString('base64')}`;
  const minioProcess = spawn(minio, ['server', minioDataDir, '--address', `127.0.0.1:${s3Port}`, '--console-address', `127.0.0.1:${await freePort()}`, '--quiet'], {
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
      if (attempt > 50) throw new Error(`MinIO on port ${s3Port} never made a bucket (51 attempts, 200 ms apart)`, { cause: error });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  probe.destroy();

  return {
    postgres,
    temporalAddress: temporal.address,
    s3,
    minioDataDir,
    pids: { postgres: postgres.process.pid, minio: minioProcess.pid },
    async stop() {
      minioProcess.kill('SIGTERM');
      await temporal.teardown();
      await postgres.stop();
    },
  };
}
