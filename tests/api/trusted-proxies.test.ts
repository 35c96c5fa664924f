import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import type { Config } from '../../infra/config';
import { startStack, type Stack } from '../helpers/stack';

/**
 * Limits that hold behind a proxy: X-Forwarded-For is believed only from the proxies
 * listed in TRUSTED_PROXIES (the embedded default lists none: tests/api/sign-in-protection.test.ts),
 * and the per-address counters live in PostgreSQL, so several API replicas count together.
 */
describe('trusted proxies and replicas', () => {
  let stack: Stack;
  const extra: FastifyInstance[] = [];
  beforeAll(async () => {
    stack = await startStack({ seed: false });
  });
  afterAll(async () => {
    for (const app of extra) await app.close();
    await stack?.close();
  });

  /** Another API process on the same database, Temporal and bucket, with its own configuration. */
  async function replica(overrides: Partial<Config> = {}): Promise<FastifyInstance> {
    const app = await buildApp({ config: { ...stack.config, ...overrides }, db: stack.db, temporal: stack.temporal, blobs: stack.blobs });
    await app.ready();
    extra.push(app);
    return app;
  }

  const login = (app: FastifyInstance, username: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/Account/login', payload: { username, password: 'wrong-password-1' }, remoteAddress, headers });

  it('believes X-Forwarded-For from a listed proxy only: clients behind it are counted one by one', async () => {
    const proxy = '10.9.0.1';
    const app = await replica({ TRUSTED_PROXIES: [proxy] });
    const through = async (client: string, from = proxy) => {
      const out: number[] = [];
      for (let i = 0; i < 61; i++) out.push((await login(app, `nobody-${client}-${i}`, from, { 'x-forwarded-for': client })).statusCode);
      return out;
    };
    // One client behind the proxy reaches the per-address limit (60 a minute)...
    const first = await through('198.51.100.7');
    expect(first.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(first[60]).toBe(429);
    // ...another client behind the same proxy is not held back by it.
    expect((await login(app, 'nobody-else', proxy, { 'x-forwarded-for': '198.51.100.8' })).statusCode).toBe(401);

    // A client that is not a listed proxy cannot pick its address: it is counted as itself.
    const direct = await through('198.51.100.9', '10.9.0.2');
    expect(direct[60]).toBe(429);
    expect((await login(app, 'nobody-direct', '10.9.0.2', { 'x-forwarded-for': '198.51.100.10' })).statusCode).toBe(429);
  });

  it('counts one address across two API replicas (RATE_LIMIT_STORE=postgres, the default)', async () => {
    expect(stack.config.RATE_LIMIT_STORE).toBe('postgres');
    const replicas = [stack.app, await replica()];
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await login(replicas[i % 2]!, `nobody-replica-${i}`, '192.0.2.50')).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429]);
  });

  it('with RATE_LIMIT_STORE=memory each replica counts alone (the option for one process)', async () => {
    const replicas = [await replica({ RATE_LIMIT_STORE: 'memory' }), await replica({ RATE_LIMIT_STORE: 'memory' })];
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await login(replicas[i % 2]!, `nobody-memory-${i}`, '192.0.2.51')).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
  });
});
