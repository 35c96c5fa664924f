import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
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
 * A TCP relay in front of Temporal, in this process. Once armed, the next bytes the client sends are
 * passed on and then this process is held for `ms`: armed as a probe starts, the probe's deadline
 * passes while its answer waits unread, and when the process runs again its timers (the deadline)
 * come before its reads (the answer), whatever the machine's speed.
 */
async function stallingRelay(target: string, ms: number) {
  const [host, port] = target.split(':') as [string, string];
  const sockets: Socket[] = [];
  let armed = false;
  const server = createServer((client) => {
    const upstream = connect(Number(port), host);
    sockets.push(client, upstream);
    client.on('data', (chunk) => {
      upstream.write(chunk);
      if (armed) {
        armed = false;
        blockEventLoop(ms);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    arm: () => void (armed = true),
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
    const relay = await stallingRelay(inject('temporalAddress'), 1_000);
    try {
      // Without the SDK's retries: the probe that misses its deadline would otherwise be retried on a
      // timer after the test has closed the channel.
      connection = await Connection.connect({ address: relay.address, interceptors: [] });
      // The relay is armed as the guard's first probe starts, so the stall always comes after the
      // probe's deadline is set, however late this loaded process runs the guard's timer.
      const service = connection.workflowService;
      const getSystemInfo = service.getSystemInfo.bind(service) as (request: object) => Promise<unknown>;
      let probesStarted = 0;
      Object.assign(service, {
        getSystemInfo: (request: object) => {
          if (probesStarted++ === 0) relay.arm();
          return getSystemInfo(request);
        },
      });
      guardTemporalCalls(connection, { probeAfterMs: 100, probeTimeoutMs: 300 });
      const [answeredBefore, unansweredBefore] = [await probes('answered'), await probes('unanswered')];
      // A long poll on an empty task queue stays pending for about a minute: a slow call, not a dead server.
      const guarded = connection.workflowService;
      const call = connection.withDeadline(Date.now() + 30_000, () =>
        guarded.pollActivityTaskQueue({ namespace: 'default', taskQueue: { name: `guard-${crypto.randomUUID()}` }, identity: 'guard-test' }),
      );
      const outcome = call.then(
        () => 'answered',
        (error: unknown) => (error instanceof TemporalUnavailableError ? 'called dead' : 'failed'),
      );
      let settled = false;
      void outcome.then(() => (settled = true));
      // The barrier: the guard has decided (a probe answered, or the call was settled).
      await vi.waitFor(async () => expect(settled || (await probes('answered')) > answeredBefore).toBe(true), { timeout: 30_000, interval: 20 });
      // Whatever the guard does on that answer runs in the same microtask queue; a macrotask later it is done.
      await new Promise((r) => setImmediate(r));
      expect(await Promise.race([outcome, Promise.resolve('still pending')])).toBe('still pending');
      // The first probe missed its deadline during the stall; the one asked again was answered.
      expect(await probes('unanswered')).toBe(unansweredBefore + 1);
      expect(await probes('answered')).toBe(answeredBefore + 1);
    } finally {
      await connection?.close().catch(() => undefined);
      connection = undefined;
      relay.close();
    }
  });

  it('still calls a silent server dead, even when this process is starved of CPU', async () => {
    const silent = await silentServer();
    try {
      connection = Connection.lazy({ address: silent.address, connectTimeout: '10 seconds' });
      guardTemporalCalls(connection, { probeAfterMs: 100, probeTimeoutMs: 300 });
      const unansweredBefore = await probes('unanswered');
      // Without the guard this call would wait forever (the test's time-out would end it).
      const error = await connection.workflowService.getSystemInfo({}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TemporalUnavailableError);
      // One probe when this process ran freely; a loaded machine may starve it long enough for the
      // guard to ask again (at most three times in all), and it still calls the server dead.
      const asked = (await probes('unanswered')) - unansweredBefore;
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(asked).toBeLessThanOrEqual(3);
    } finally {
      // The connection first: a server gone under a live channel makes the SDK retry on a timer,
      // which would then find the channel shut.
      await connection?.close().catch(() => undefined);
      connection = undefined;
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
      // The connection first: a server gone under a live channel makes the SDK retry on a timer,
      // which would then find the channel shut.
      await connection?.close().catch(() => undefined);
      connection = undefined;
      silent.close();
    }
  });
});
