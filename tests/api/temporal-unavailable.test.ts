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
import { createTemporalClient, temporalClientMetrics } from '../../infra/temporal/connection';
import { findTemporalCli } from '../../infra/tools/temporal-cli';
import { freePort } from '../setup/global';
import { createTestDatabase, eventually, signIn, testConfig } from '../helpers/stack';

/**
 * While Temporal is stalled or dead, a workflow action answers 503 with Retry-After (not
 * 500, not after the SDK's 20 s of retries, not never), and /readyz says Temporal is unreachable. The
 * API here talks to a Temporal dev server of its own, which the test freezes (SIGSTOP) and then kills.
 * That the answer came from the call guard is read from its probe counter, not from a stopwatch (a
 * frozen server without the guard would never answer: the test's time-out would end it); how fast
 * the guard answers is the guard's own settings (TEMPORAL_PROBE_AFTER_MS and _TIMEOUT_MS).
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

  const apply = () =>
    app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: applicant, payload: { opportunityId, householdSize: 2, householdIncome: 52_000, agreeToTerms: true } });
  const ready = () => app.inject({ method: 'GET', url: '/readyz' });
  const unanswered = async () => (await temporalClientMetrics.probes.get()).values.find((v) => v.labels.outcome === 'unanswered')?.value ?? 0;

  /** An action and /readyz answer 503, and the guard's probe found Temporal silent (once at least: a burst may share it). */
  async function expect503FromTheGuard() {
    const probesBefore = await unanswered();
    const action = await apply();
    expect(action.statusCode).toBe(503);
    expect(action.json()).toMatchObject({ status: 503, data: { code: 'serviceUnavailable' } });
    expect(Number(action.headers['retry-after'])).toBeGreaterThan(0);
    expect(await unanswered()).toBeGreaterThan(probesBefore);
    const readiness = await ready();
    expect(readiness.statusCode).toBe(503);
    expect(readiness.json().data).toMatchObject({ database: 'ok', temporal: 'unreachable', blobs: 'ok' });
  }

  it('answers 503 from the call guard while Temporal is stalled, and is ready again when it resumes', async () => {
    temporalServer.process.kill('SIGSTOP');
    try {
      await expect503FromTheGuard();
      // A second action while still stalled is refused the same way.
      const again = await apply();
      expect(again.statusCode).toBe(503);
      expect(again.json().data.code).toBe('serviceUnavailable');
    } finally {
      temporalServer.process.kill('SIGCONT');
    }
    await eventually(async () => (await ready()).statusCode === 200, 30_000, '/readyz answering 200 after Temporal resumed');
  });

  it('answers 503 from the call guard when Temporal is gone', async () => {
    temporalServer.process.kill('SIGKILL');
    await new Promise<void>((done) => (temporalServer.process.exitCode !== null || temporalServer.process.signalCode !== null ? done() : temporalServer.process.once('exit', () => done())));
    const before = new Date();
    await expect503FromTheGuard();
    // The apply projected the application's first view before its start failed: the row and its inbox
    // task are gone again (no case without a run), so the household may apply once Temporal is back.
    const left = await db.selectFrom('applications').select('id').where('opportunity_id', '=', opportunityId).where('applied_at', '>=', before).execute();
    expect(left).toEqual([]);
    const tasks = await db.selectFrom('manager_tasks').select('case_id').where('context_id', '=', opportunityId).where('created_at', '>=', before).execute();
    expect(tasks).toEqual([]);
  });
});
