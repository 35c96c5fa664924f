/**
 * Real services for the whole test run, started once: PostgreSQL (the product's own embedded
 * start-up), a Temporal dev server (through @temporalio/testing with the CLI found or built by
 * infra/tools/) and MinIO as the S3-compatible server. Each test file makes its own database from a
 * migrated template, and its own task queue and IDs, so files run in parallel without sharing state.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../infra/db/database';
import { migrateToLatest } from '../../infra/db/migrate';
import { startServices } from '../helpers/services';
import { bundleWorkflows } from '../../worker/create-worker';

export { freePort } from '../helpers/services';

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

export default async function setup(project: TestProject) {
  const root = await mkdtemp(join(tmpdir(), 'portal-test-'));
  const services = await startServices(root);
  const { postgres, s3 } = services;
  await postgres.createDatabase('portal_template');
  const templateDb = createDb({ DATABASE_URL: postgres.url('portal_template'), PG_POOL_MAX: 2, PG_STATEMENT_TIMEOUT_MS: 30_000, PG_SSL: false });
  await migrateToLatest(templateDb);
  await templateDb.destroy();

  // Bundle the workflows once for every test worker.
  const bundleDir = join(root, 'bundle');
  await mkdir(bundleDir, { recursive: true });
  const { code } = await bundleWorkflows({ logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } });
  const workflowBundlePath = join(bundleDir, 'workflows.js');
  await writeFile(workflowBundlePath, code);

  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('templateDatabase', 'portal_template');
  project.provide('temporalAddress', services.temporalAddress);
  project.provide('s3', s3);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('minioDataDir', services.minioDataDir);

  return async () => {
    await services.stop();
    await rm(root, { recursive: true, force: true });
  };
}
