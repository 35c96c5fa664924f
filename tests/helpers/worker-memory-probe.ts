/**
 * Measures what one cached lease-up workflow costs a worker, in a process of its own:
 * `node --expose-gc --import tsx tests/helpers/worker-memory-probe.ts` with TEMPORAL_ADDRESS and
 * DATA_ENCRYPTION_KEY. Bundles the workflows (PROBE_WORKFLOWS_PATH: another entry, to weigh a part),
 * runs a worker in debug mode (the workflows then live in this thread's heap, where it can be
 * weighed), starts PROBE_COUNT lease-up
 * workflows, waits until each answers a Query (so each is in the cache), and prints one JSON line:
 * heap and RSS per cached workflow. Activities are stubs: they are not what is weighed.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, DefaultLogger } from '@temporalio/worker';
import { dataConverter } from '../../infra/temporal/connection';
import { leaseUpMessages } from '../../workflows/lease-up.messages';
import { bundleWorkflows } from '../../worker/create-worker';

const env = process.env;
const count = Number(env.PROBE_COUNT ?? 200);
const taskQueue = `probe-${randomUUID()}`;
const keys = { DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY! };
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

Runtime.install({ logger: new DefaultLogger('ERROR') });
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
const bundle = await bundleWorkflows({ path: env.PROBE_WORKFLOWS_PATH, logger: quiet });
const stub = async () => undefined;
const activities = new Proxy({} as Record<string, () => Promise<undefined>>, { get: () => stub, has: () => true, ownKeys: () => [], getOwnPropertyDescriptor: () => undefined });
const connection = await NativeConnection.connect({ address: env.TEMPORAL_ADDRESS! });
const worker = await Worker.create({
  connection,
  taskQueue,
  workflowBundle: bundle,
  activities: { projectApplication: stub, sendNotice: stub, issueLogNumber: stub, ...activities },
  dataConverter: dataConverter(keys),
  debugMode: true,
  maxCachedWorkflows: count + 20,
});
const running = worker.run();
const client = new Client({ connection: await Connection.connect({ address: env.TEMPORAL_ADDRESS! }), dataConverter: dataConverter(keys) });

/** Until it answers: on a loaded machine a Query may time out before the worker gets to it. */
async function answered(handle: { query: (q: typeof leaseUpMessages.getView) => Promise<unknown> }): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await handle.query(leaseUpMessages.getView);
      return;
    } catch (error) {
      if (attempt > 20) throw error;
    }
  }
}

async function startAndCache(n: number) {
  for (let done = 0; done < n; done += 20) await startBatch(Math.min(20, n - done));
}

async function startBatch(n: number) {
  const handles = await Promise.all(
    Array.from({ length: n }, () => {
      const id = randomUUID();
      return client.workflow.start('leaseUpApplication', {
        taskQueue,
        workflowId: `probe-${id}`,
        args: [{ applicationId: id, householdId: randomUUID(), opportunityId: randomUUID(), organizationId: randomUUID(), applicantUserId: randomUUID(), householdSize: 2, householdIncome: 50_000, logNumber: 'L-000001' }],
      });
    }),
  );
  await Promise.all(handles.map(answered));
}

const weigh = async () => {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
};
// A first few, so the bundle, the context and the SDK's lazy parts are loaded before the baseline.
await startAndCache(5);
const before = await weigh();
await startAndCache(count);
const after = await weigh();
const MB = 1024 * 1024;
process.stdout.write(
  `${JSON.stringify({ count, heapPerWorkflowMB: (after.heap - before.heap) / count / MB, rssPerWorkflowMB: (after.rss - before.rss) / count / MB, heapMB: after.heap / MB })}\n`,
);
worker.shutdown();
await running;
await connection.close();
process.exit(0);
