import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Client } from '@temporalio/client';
import { buildApp } from '../../api/app';
import { createBlobStore } from '../../infra/blobs';
import { keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { startTemporalDevServer, type DevServerHandle } from '../../infra/embedded';
import { seedDemoData } from '../../infra/seed';
import { createTemporalClient } from '../../infra/temporal/connection';
import { findTemporalCli } from '../../infra/tools/temporal-cli';
import { freePort } from '../setup/global';
import { createTestDatabase, signIn, testConfig } from '../helpers/stack';

/**
 * Issue 17: while Temporal is stalled or dead, a workflow action answers 503 with Retry-After within
 * 2 s (not 500 after 20 s), and /readyz answers within 2 s. The API here talks to a Temporal dev server
 * of its own, which the test freezes (SIGSTOP) and then kills.
 */
describe('Temporal stalled or down', () => {
  let temporalServer: DevServerHandle;
  let app: FastifyInstance;
  let db: Db;
  let temporal: Client;
  let blobDir: string;
  let applicant: { authorization: string };
  let opportunityId: string;

  beforeAll(async () => {
    temporalServer = await startTemporalDevServer(await findTemporalCli(), { port: await freePort(), uiPort: await freePort() });
    const database = await createTestDatabase();
    db = database.db;
    blobDir = await mkdtemp(join(tmpdir(), 'portal-t503-'));
    const config = testConfig(database.url, { TEMPORAL_ADDRESS: temporalServer.address, BLOB_DRIVER: 'local', BLOB_DIR: blobDir });
    useDataKeys(keyRingFromConfig(config));
    const blobs = createBlobStore(config);
    await seedDemoData(db, new Date(), { blobs });
    temporal = await createTemporalClient(config, { lazy: true });
    app = await buildApp({ config, db, temporal, blobs });
    await app.ready();
    applicant = await signIn(app, 'User');
    opportunityId = (await app.inject({ method: 'GET', url: '/api/Opportunity/published-opportunities' })).json().data[0].id;
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  }, 120_000);

  afterAll(async () => {
    if (temporalServer?.process.signalCode === null && temporalServer.process.exitCode === null) temporalServer.process.kill('SIGCONT');
    await app?.close();
    await temporal?.connection.close().catch(() => undefined);
    await temporalServer?.stop();
    await db?.destroy();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  const timed = async (run: () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): { status: number; data: unknown } }>) => {
    const started = performance.now();
    const response = await run();
    return { response, ms: performance.now() - started };
  };
  const apply = () =>
    app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: applicant, payload: { opportunityId, householdSize: 2, householdIncome: 52_000, agreeToTerms: true } });
  const ready = () => app.inject({ method: 'GET', url: '/readyz' });

  async function expectQuick503() {
    const action = await timed(apply);
    expect(action.response.statusCode).toBe(503);
    expect(action.response.json()).toMatchObject({ status: 503, data: { code: 'serviceUnavailable' } });
    expect(Number(action.response.headers['retry-after'])).toBeGreaterThan(0);
    expect(action.ms).toBeLessThan(2000);
    const readiness = await timed(ready);
    expect(readiness.response.statusCode).toBe(503);
    expect(readiness.response.json().data).toMatchObject({ database: 'ok', temporal: 'unreachable', blobs: 'ok' });
    expect(readiness.ms).toBeLessThan(2000);
  }

  it('answers 503 within 2 s while Temporal is stalled, and is ready again when it resumes', async () => {
    temporalServer.process.kill('SIGSTOP');
    try {
      await expectQuick503();
      // A second action while still stalled fails at once.
      expect((await timed(apply)).ms).toBeLessThan(2000);
    } finally {
      temporalServer.process.kill('SIGCONT');
    }
    const deadline = Date.now() + 30_000;
    while ((await ready()).statusCode !== 200) {
      if (Date.now() > deadline) throw new Error('not ready after Temporal resumed');
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  it('answers 503 within 2 s when Temporal is gone', async () => {
    temporalServer.process.kill('SIGKILL');
    await new Promise<void>((done) => (temporalServer.process.exitCode !== null || temporalServer.process.signalCode !== null ? done() : temporalServer.process.once('exit', () => done())));
    const before = new Date();
    await expectQuick503();
    // The apply projected the application's first view before its start failed: the row and its inbox
    // task are gone again (no case without a run), so the household may apply once Temporal is back.
    const left = await db.selectFrom('applications').select('id').where('opportunity_id', '=', opportunityId).where('applied_at', '>=', before).execute();
    expect(left).toEqual([]);
    const tasks = await db.selectFrom('manager_tasks').select('case_id').where('context_id', '=', opportunityId).where('created_at', '>=', before).execute();
    expect(tasks).toEqual([]);
  });
});
