/**
 * The bare Temporal client's figures, from the same server in the same run: starts of a trivial
 * workflow, a trivial Update and Query on it, its history length, and the bare worker's memory per
 * cached workflow. Each portal figure is printed beside these.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { cpuSpent } from '../cpu';
import { rssOf } from '../machine';
import { BARE_TASK_QUEUE, type BenchStack } from '../stack';
import { pool, since } from '../stats';
import { bump, peek } from '../bare-workflows';

export interface BareFigures {
  startsPerSecond: number;
  updateMs: number[];
  queryMs: number[];
  /** History length of one bare workflow after its start and `updatesEach` Updates. */
  historyEvents: number;
  updatesEach: number;
  rssPerWorkflow: number;
  workflowIds: string[];
  /** CPU seconds of each part over the starts and until each started workflow answered a Query. */
  cpuSeconds: Record<string, number>;
}

/** Runs a client call again after a transient failure (a gRPC deadline on a loaded machine), up to 5 times. */
async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

/** How long `client` takes to start `count` trivial workflows with `concurrency` starts in flight. */
async function bareStarts(client: Client, count: number, concurrency: number): Promise<{ perSecond: number; ids: string[] }> {
  const ids = Array.from({ length: count }, () => `bench-bare/${randomUUID()}`);
  const start = performance.now();
  await pool(count, concurrency, async (i) => {
    await retrying(async () => {
      try {
        await client.workflow.start('bareCase', { workflowId: ids[i]!, taskQueue: BARE_TASK_QUEUE, args: [{ id: ids[i]! }], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
      } catch (error) {
        // A start retried after its first attempt landed.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    });
  });
  return { perSecond: count / (since(start) / 1000), ids };
}

export async function measureBare(
  stack: BenchStack,
  options: { starts: number; concurrency: number; samples: number },
  cpuNow: () => Promise<Record<string, number>>,
): Promise<BareFigures> {
  const client = stack.temporal;
  const rssBefore = await rssOf(stack.bare.pid());
  const cpuBefore = await cpuNow();
  const { perSecond, ids } = await bareStarts(client, options.starts, options.concurrency);
  // Every started workflow has run its first task (and sits in the bare worker's cache) once it answers a query.
  await pool(ids.length, options.concurrency, async (i) => {
    await retrying(() => client.workflow.getHandle(ids[i]!).query(peek));
  });
  const rssAfter = await rssOf(stack.bare.pid());
  const cpuSeconds = cpuSpent(cpuBefore, await cpuNow());

  const targets = ids.slice(0, Math.min(50, ids.length));
  const updateMs: number[] = [];
  const queryMs: number[] = [];
  for (let i = 0; i < options.samples; i++) {
    const handle = client.workflow.getHandle(targets[i % targets.length]!);
    let t = performance.now();
    await handle.executeUpdate(bump, { args: [{ by: 1 }] });
    updateMs.push(since(t));
    t = performance.now();
    await handle.query(peek);
    queryMs.push(since(t));
  }
  const described = await client.workflow.getHandle(targets[0]!).describe();
  return {
    startsPerSecond: perSecond,
    updateMs,
    queryMs,
    historyEvents: described.historyLength ?? Number.NaN,
    updatesEach: Math.ceil(options.samples / targets.length),
    rssPerWorkflow: (rssAfter - rssBefore) / ids.length,
    workflowIds: ids,
    cpuSeconds,
  };
}
