import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Connection } from '@temporalio/client';
import { guardTemporalCalls, temporalClientMetrics, TemporalUnavailableError } from '../../infra/temporal/connection';

/** How many of the guard's checks that Temporal is alive ended with this outcome so far. */
async function probes(outcome: 'answered' | 'unanswered'): Promise<number> {
  return (await temporalClientMetrics.probes.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

/** Holds this thread (the event loop included) for `ms`, as a long synchronous task would. */
const blockEventLoop = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A server that accepts connections and never answers: Temporal frozen. */
async function silentServer() {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/**
 * The guard that turns a dead Temporal into a quick 503 must not call a live one dead because this
 * process was busy: a long synchronous task (a letter rendered by an in-process worker) holds the
 * event loop past the probe's deadline, and the probe's answer is only read afterwards. What the
 * guard decided is read from its probe counter, never from how long anything took.
 */
describe('the Temporal call guard', () => {
  let connection: Connection | undefined;
  afterEach(async () => {
    await connection?.close().catch(() => undefined);
    connection = undefined;
  });

  it('keeps a pending call going when the probe missed its deadline only because this process was stalled', async () => {
    connection = await Connection.connect({ address: inject('temporalAddress') });
    guardTemporalCalls(connection, { probeAfterMs: 100, probeTimeoutMs: 300 });
    const answeredBefore = await probes('answered');
    // A long poll on an empty task queue stays pending for about a minute: a slow call, not a dead server.
    const service = connection.workflowService;
    const call = connection.withDeadline(Date.now() + 30_000, () =>
      service.pollActivityTaskQueue({ namespace: 'default', taskQueue: { name: `guard-${crypto.randomUUID()}` }, identity: 'guard-test' }),
    );
    const outcome = call.then(
      () => 'answered',
      (error: unknown) => (error instanceof TemporalUnavailableError ? 'called dead' : 'failed'),
    );
    let settled = false;
    void outcome.then(() => (settled = true));
    // Due at the same moment as the guard's own timer and set after it, so it runs right after the
    // probe is sent: the event loop is held for longer than the probe's deadline.
    setTimeout(() => blockEventLoop(1_000), 100);
    // The barrier: the guard has decided (a probe answered, or the call was settled).
    await vi.waitFor(async () => expect(settled || (await probes('answered')) > answeredBefore).toBe(true), { timeout: 30_000, interval: 20 });
    // Whatever the guard does on that answer runs in the same microtask queue; a macrotask later it is done.
    await new Promise((r) => setImmediate(r));
    expect(await Promise.race([outcome, Promise.resolve('still pending')])).toBe('still pending');
    expect(await probes('answered')).toBeGreaterThan(answeredBefore);
  });

  it('still calls a stalled server dead when this process was not stalled', async () => {
    const silent = await silentServer();
    try {
      connection = Connection.lazy({ address: silent.address, connectTimeout: '10 seconds' });
      guardTemporalCalls(connection, { probeAfterMs: 100, probeTimeoutMs: 300 });
      const unansweredBefore = await probes('unanswered');
      // Without the guard this call would wait forever (the test's time-out would end it).
      const error = await connection.workflowService.getSystemInfo({}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TemporalUnavailableError);
      expect(await probes('unanswered')).toBe(unansweredBefore + 1);
    } finally {
      silent.close();
    }
  });

  it('remembers a failed check for a moment of its clock: a burst fails without asking again, a later call asks again', async () => {
    const silent = await silentServer();
    let clock = 1_000_000;
    try {
      connection = Connection.lazy({ address: silent.address, connectTimeout: '10 seconds' });
      guardTemporalCalls(connection, { probeAfterMs: 100, probeTimeoutMs: 300, now: () => clock });
      const call = () => connection!.workflowService.getSystemInfo({}).catch((e: unknown) => e);
      const before = await probes('unanswered');
      expect(await call()).toBeInstanceOf(TemporalUnavailableError);
      expect(await probes('unanswered')).toBe(before + 1);
      // Within the remembered moment (the guard's clock has not moved): refused without a probe.
      for (let i = 0; i < 3; i++) expect(await call()).toBeInstanceOf(TemporalUnavailableError);
      expect(await probes('unanswered')).toBe(before + 1);
      // Once it has passed, the next call checks again.
      clock += 301;
      expect(await call()).toBeInstanceOf(TemporalUnavailableError);
      expect(await probes('unanswered')).toBe(before + 2);
    } finally {
      silent.close();
    }
  });
});
