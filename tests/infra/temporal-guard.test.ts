import { afterEach, describe, expect, inject, it } from 'vitest';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Connection } from '@temporalio/client';
import { guardTemporalCalls, TemporalUnavailableError } from '../../infra/temporal/connection';

/**
 * The guard that turns a dead Temporal into a quick 503 must not call a live one dead because this
 * process was busy: a long synchronous task (a letter rendered by an in-process worker) holds the
 * event loop past the probe's deadline, and the probe's answer is only read afterwards.
 */
describe('the Temporal call guard', () => {
  let connection: Connection | undefined;
  afterEach(async () => {
    await connection?.close().catch(() => undefined);
    connection = undefined;
  });

  const blockEventLoop = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy: nothing else in this process runs
    }
  };

  it('keeps a pending call going when the probe missed its deadline only because this process was stalled', async () => {
    connection = await Connection.connect({ address: inject('temporalAddress') });
    guardTemporalCalls(connection, { probeAfterMs: 100, probeTimeoutMs: 300 });
    // A long poll on an empty task queue stays pending for about a minute: a slow call, not a dead server.
    const service = connection.workflowService;
    const call = connection.withDeadline(Date.now() + 30_000, () =>
      service.pollActivityTaskQueue({ namespace: 'default', taskQueue: { name: `guard-${crypto.randomUUID()}` }, identity: 'guard-test' }),
    );
    const outcome = call.then(
      () => 'answered',
      (error: unknown) => (error instanceof TemporalUnavailableError ? 'called dead' : 'failed'),
    );
    // Due at the same moment as the guard's own timer and set after it, so it runs right after the
    // probe is sent: the event loop is held for longer than the probe's deadline.
    setTimeout(() => blockEventLoop(1_000), 100);
    const after = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve('still pending'), 2_000))]);
    expect(after).toBe('still pending');
  });

  it('still calls a stalled server dead when this process was not stalled', async () => {
    // A server that accepts connections and never answers: Temporal frozen.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      connection = Connection.lazy({ address: `127.0.0.1:${(silent.address() as AddressInfo).port}`, connectTimeout: '10 seconds' });
      guardTemporalCalls(connection, { probeAfterMs: 100, probeTimeoutMs: 300 });
      const started = performance.now();
      const error = await connection.workflowService.getSystemInfo({}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TemporalUnavailableError);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
