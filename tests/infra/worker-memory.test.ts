import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEAP_LIMIT_SLACK_MB } from '../../worker/sizing';
import { makeUser } from '../helpers/lease-up-users';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string };

const HEAP_MB = 128;
const CACHE = 3;
const CASES = 10;

/**
 * A worker with a small heap and a cache smaller than the cases it runs stays up, and
 * every case progresses (cases that fall out of the cache are replayed from their history on their
 * next task). The worker is the real entry point (worker/main.ts) in its own process, started as
 * `npm start` starts it (`--max-old-space-size`), with the sticky cache from WORKER_MAX_CACHED_WORKFLOWS.
 */
describe('a worker with a small heap and a small cache', () => {
  let stack: Stack;
  let manager: Auth;
  let worker: ChildProcess;
  let output = '';
  let scratch: string;

  beforeAll(async () => {
    stack = await startStack({ worker: false });
    manager = await signIn(stack.app, 'Manager');
    scratch = await mkdtemp(join(tmpdir(), 'portal-worker-memory-'));
    const c = stack.config;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: c.DATABASE_URL,
      TEMPORAL_ADDRESS: c.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: c.TEMPORAL_TASK_QUEUE,
      BLOB_DRIVER: 's3',
      S3_ENDPOINT: c.S3_ENDPOINT,
      S3_BUCKET: c.S3_BUCKET,
      S3_REGION: c.S3_REGION,
      S3_ACCESS_KEY_ID: c.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: c.S3_SECRET_ACCESS_KEY,
      JWT_SECRET: c.JWT_SECRET,
      DATA_ENCRYPTION_KEY: c.DATA_ENCRYPTION_KEY,
      MAIL_DIR: join(scratch, 'mail'),
      SMS_DIR: join(scratch, 'sms'),
      WORKER_BUNDLE_PATH: inject('workflowBundlePath'),
      WORKER_HEAP_MB: String(HEAP_MB),
      WORKER_MAX_CACHED_WORKFLOWS: String(CACHE),
    };
    worker = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', 'worker/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(async () => output.includes('worker started') || worker.exitCode !== null, 120_000);
    if (worker.exitCode !== null) throw new Error(`worker exited:\n${output}`);
  }, 240_000);
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((done) => worker.once('exit', done));
      worker.kill('SIGTERM');
      await exited;
    }
    await stack?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const call = (url: string, who: Auth, payload?: object) => stack.app.inject({ method: 'POST', url, headers: { authorization: who.authorization }, ...(payload ? { payload } : {}) });

  it(`runs ${CASES} cases through a cache of ${CACHE}: the worker stays up and every case moves on`, async () => {
    const sized = /"heapMb":(\d+),"maxCachedWorkflows":(\d+)/.exec(output);
    expect(sized, output).not.toBeNull();
    expect(Number(sized![2])).toBe(CACHE);
    // The limit V8 reports adds the young space to --max-old-space-size: the worker is small, and
    // says nothing about a missing flag.
    expect(Number(sized![1])).toBeGreaterThanOrEqual(HEAP_MB);
    expect(Number(sized![1])).toBeLessThanOrEqual(HEAP_MB + HEAP_LIMIT_SLACK_MB);
    expect(output).not.toContain('was not started with --max-old-space-size');

    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('selection', '!=', 'lottery').orderBy('name').executeTakeFirstOrThrow();
    const cases: { applicant: Auth; id: string }[] = [];
    for (let i = 0; i < CASES; i++) {
      const applicant = await makeUser(stack, { role: 'User' });
      const applied = await call('/api/LeaseUpApplication/apply', applicant, { opportunityId: opportunity.id, householdSize: 2, householdIncome: 50_000, agreeToTerms: true });
      expect(applied.statusCode, applied.body).toBe(201);
      cases.push({ applicant, id: applied.json().data.applicationId });
    }
    // Every case twice more, round robin, so each action finds its case evicted by the others.
    for (const { applicant, id } of cases) expect((await call(`/api/Household/submit-applicant-profile/${id}`, applicant)).statusCode).toBe(200);
    for (const { id } of cases) {
      const done = await call(`/api/LeaseUpApplication/updateleaseapplicationstatus/${id}/MarkAsComplete`, manager, {});
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().data.history.map((h: { action: string }) => h.action)).toEqual(expect.arrayContaining(['SubmitProfile', 'MarkAsComplete']));
    }
    // The read model followed (projections ran on the same small worker).
    await eventually(async () => {
      const rows = await stack.db.selectFrom('applications').select(['id', 'view']).where('id', 'in', cases.map((c) => c.id)).execute();
      return rows.length === CASES && rows.every((r) => (r.view as { history?: { action: string }[] } | null)?.history?.some((h) => h.action === 'MarkAsComplete'));
    }, 60_000);
    expect(worker.exitCode).toBeNull();
    expect(output).not.toMatch(/heap out of memory|FATAL ERROR/i);
  }, 180_000);
});
