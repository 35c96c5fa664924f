import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serveApiMetrics, type MetricsServer } from '../../api/metrics';
import { loadConfig } from '../../infra/config';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { freePort } from '../helpers/services';
import { makeUser } from '../helpers/lease-up-users';
import { eventually, startStack, type Stack } from '../helpers/stack';

const TOKEN = randomUUID() + randomUUID();

/** Every sample of `name` in a Prometheus text scrape, with its labels. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
      const labels = Object.fromEntries([...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { labels, value: Number(line.slice(line.lastIndexOf(' ') + 1)) };
    });
}

/**
 * The API's metrics endpoint (its own port, behind a bearer token) and the worker's
 * (the real entry point in its own process, as `npm start` and the manifests run it, with the
 * Temporal SDK's Prometheus exporter) are scraped after real requests and workflow runs.
 */
describe('metrics: the API and the worker expose Prometheus series', () => {
  let stack: Stack;
  let apiMetrics: MetricsServer;
  let worker: ChildProcess;
  let workerMetricsUrl: string;
  let output = '';
  let scratch: string;
  const stuck: string[] = [];

  beforeAll(async () => {
    stack = await startStack({ worker: false });
    apiMetrics = (await serveApiMetrics(stack.app.metrics.registry, { METRICS_PORT: await freePort(), METRICS_HOST: '127.0.0.1', METRICS_TOKEN: TOKEN }))!;
    scratch = await mkdtemp(join(tmpdir(), 'portal-metrics-'));
    const c = stack.config;
    const workerAddress = `127.0.0.1:${await freePort()}`;
    workerMetricsUrl = `http://${workerAddress}/metrics`;
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
      WORKER_METRICS_ADDRESS: workerAddress,
    };
    worker = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(async () => output.includes('worker started') || worker.exitCode !== null, 120_000);
    if (worker.exitCode !== null) throw new Error(`worker exited:\n${output}`);
  }, 240_000);
  afterAll(async () => {
    for (const id of stuck) await stack.temporal.workflow.getHandle(id).terminate('metrics test over').catch(() => undefined);
    if (worker && worker.exitCode === null) {
      const exited = new Promise((done) => worker.once('exit', done));
      worker.kill('SIGTERM');
      await exited;
    }
    await apiMetrics?.close();
    await stack?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const scrapeApi = async () => {
    const r = await fetch(apiMetrics.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    return r.text();
  };

  it('the API counts requests by route pattern and status, with latency buckets and Temporal client failures; only on its own port, with the token', async () => {
    const applicant = await makeUser(stack, { role: 'User' });
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('selection', '!=', 'lottery').orderBy('name').executeTakeFirstOrThrow();
    for (let i = 0; i < 3; i++) expect((await stack.app.inject({ url: '/api/Opportunity/published-opportunities' })).statusCode).toBe(200);
    // A workflow run through the API, answered by the worker process.
    const applied = await stack.app.inject({ method: 'POST', url: '/api/LeaseUpApplication/apply', headers: { authorization: applicant.authorization }, payload: { opportunityId: opportunity.id, householdSize: 2, householdIncome: 50_000, agreeToTerms: true } });
    expect(applied.statusCode, applied.body).toBe(201);
    const { applicationId } = applied.json().data;
    expect((await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${applicationId}`, headers: { authorization: applicant.authorization } })).statusCode).toBe(200);
    const strangerId = randomUUID();
    expect((await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${strangerId}`, headers: { authorization: applicant.authorization } })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await stack.app.inject({ url: `/api/no-such-route/${strangerId}` })).statusCode).toBe(404);
    // A Temporal call that fails (no such workflow) is counted with its gRPC status.
    await expect(stack.temporal.workflow.getHandle(`metrics-missing-${randomUUID()}`).describe()).rejects.toThrow();

    const text = await scrapeApi();
    const requests = samples(text, 'portal_http_requests_total');
    expect(requests.find((s) => s.labels.route === '/api/Opportunity/published-opportunities' && s.labels.status === '200' && s.labels.method === 'GET')?.value).toBeGreaterThanOrEqual(3);
    expect(requests.find((s) => s.labels.route === '/api/LeaseUpApplication/apply' && s.labels.status === '201' && s.labels.method === 'POST')?.value).toBe(1);
    expect(requests.filter((s) => s.labels.route === '/api/LeaseUpApplication/getDetailsById/:id').length).toBeGreaterThanOrEqual(2);
    expect(requests.find((s) => s.labels.route === 'unmatched' && s.labels.status === '404')).toBeDefined();
    // Route patterns only: no id of a case, a user or a path anyone typed reaches a label.
    for (const id of [applicationId, strangerId, applicant.userId, opportunity.id]) expect(text).not.toContain(id);

    const buckets = samples(text, 'portal_http_request_duration_seconds_bucket').filter((s) => s.labels.route === '/api/Opportunity/published-opportunities' && s.labels.status === '200');
    expect(buckets.map((s) => s.labels.le)).toEqual(expect.arrayContaining(['0.005', '0.1', '1', '+Inf']));
    expect(buckets.find((s) => s.labels.le === '+Inf')?.value).toBeGreaterThanOrEqual(3);
    expect(samples(text, 'portal_http_request_duration_seconds_count').length).toBeGreaterThan(0);

    expect(samples(text, 'portal_temporal_client_calls_total').reduce((n, s) => n + s.value, 0)).toBeGreaterThan(0);
    expect(samples(text, 'portal_temporal_client_errors_total').find((s) => s.labels.method === 'describeWorkflowExecution' && s.labels.code === 'NOT_FOUND')?.value).toBeGreaterThanOrEqual(1);
    expect(samples(text, 'portal_api_process_resident_memory_bytes').length).toBe(1);

    // Protected: no token, a wrong one, another path; and nothing of it on the web port.
    expect((await fetch(apiMetrics.url)).status).toBe(401);
    expect((await fetch(apiMetrics.url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(apiMetrics.url.replace('/metrics', '/'), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const onWebPort = await stack.app.inject({ url: '/metrics' });
    expect(onWebPort.body).not.toContain('portal_http_requests_total');
  }, 120_000);

  it('the worker exports the Temporal SDK series and counts activity attempts and failures by activity type', async () => {
    // A case whose household does not exist: its first database activity fails and is retried.
    const householdId = randomUUID();
    const opportunity = await stack.db.selectFrom('opportunities').select(['id', 'organization_id']).where('published', '=', true).orderBy('name').executeTakeFirstOrThrow();
    const applicationId = randomUUID();
    const workflowId = leaseUpWorkflowId(applicationId);
    stuck.push(workflowId);
    await stack.temporal.workflow.start('leaseUpApplication', {
      workflowId,
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      args: [{ applicationId, householdId, opportunityId: opportunity.id, organizationId: opportunity.organization_id, applicantUserId: randomUUID(), householdSize: 2, householdIncome: 40_000 }],
    });

    const text = await eventually(async () => {
      const body = await (await fetch(workerMetricsUrl)).text();
      return samples(body, 'portal_activity_failures_total').some((s) => s.labels.workflow_type === 'leaseUpApplication' && s.value >= 1) && body;
    }, 60_000);
    const failures = samples(text, 'portal_activity_failures_total').filter((s) => s.labels.workflow_type === 'leaseUpApplication');
    expect(failures[0]!.labels).toMatchObject({ reason: 'error', task_queue: stack.config.TEMPORAL_TASK_QUEUE });
    expect(failures[0]!.labels.activity_type).toMatch(/^[a-zA-Z]+$/);
    expect(samples(text, 'portal_activity_executions_total').some((s) => s.labels.activity_type && s.value >= 1)).toBe(true);
    // The SDK's own series: task latencies (milliseconds), the sticky cache, the slots in use.
    for (const name of ['temporal_workflow_task_schedule_to_start_latency_bucket', 'temporal_workflow_task_execution_latency_bucket', 'temporal_activity_schedule_to_start_latency_bucket', 'temporal_sticky_cache_size', 'temporal_worker_task_slots_used']) {
      expect(samples(text, name).length, name).toBeGreaterThan(0);
    }
    // No identifier of a case in the worker's labels either.
    expect(text).not.toContain(householdId);
    expect(text).not.toContain(applicationId);
  }, 120_000);

  it('metrics are off unless configured, and never on the web port', async () => {
    expect(await serveApiMetrics(stack.app.metrics.registry, { METRICS_PORT: undefined, METRICS_HOST: '127.0.0.1', METRICS_TOKEN: undefined })).toBeUndefined();
    const base = { DATABASE_URL: 'postgres://u:p@localhost:5432/db', TEMPORAL_ADDRESS: 'localhost:7233', JWT_SECRET: 'x'.repeat(32), DATA_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') };
    const defaults = loadConfig(base);
    expect([defaults.METRICS_PORT, defaults.METRICS_HOST, defaults.METRICS_TOKEN, defaults.WORKER_METRICS_ADDRESS]).toEqual([undefined, '127.0.0.1', undefined, undefined]);
    expect(() => loadConfig({ ...base, PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ ...base, WORKER_METRICS_ADDRESS: '9464' })).toThrow(/WORKER_METRICS_ADDRESS must be host:port/);
  });
});
