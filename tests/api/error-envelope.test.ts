import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopePlugin } from '../../api/plugins/envelope';
import type { RouteEntry } from '../../api/plugins/route-list';
import type { Role } from '../../domain';
import { signIn, startStack, type DemoRole, type Stack } from '../helpers/stack';

/**
 * The envelope's error handler answers whatever is thrown, in the envelope: errors of odd shapes
 * (a numeric or symbol `code`, no message, a thrown string or plain object) and a 4xx status a
 * library put on its error.
 */
describe('the error handler, whatever is thrown', () => {
  const odd: { name: string; make: () => unknown; status: number }[] = [
    { name: 'an Error with a numeric code (a gRPC status)', make: () => Object.assign(new Error('3 INVALID_ARGUMENT: bad token'), { code: 3 }), status: 500 },
    { name: 'an Error with a symbol code', make: () => Object.assign(new Error('odd'), { code: Symbol('odd') }), status: 500 },
    { name: 'an Error with an object code', make: () => Object.assign(new Error('odd'), { code: { nested: true } }), status: 500 },
    { name: 'an Error with no message', make: () => new Error(), status: 500 },
    { name: 'a 4xx Error with no message and a numeric code', make: () => Object.assign(new Error(), { statusCode: 400, code: 7 }), status: 400 },
    { name: 'a 4xx Error whose message is not text', make: () => Object.assign(new Error(), { statusCode: 413, message: 5 }), status: 413 },
    { name: 'an Error with a statusCode that is not a number', make: () => Object.assign(new Error('x'), { statusCode: '404' }), status: 500 },
    { name: 'a thrown string', make: () => 'just text', status: 500 },
    { name: 'a thrown number', make: () => 42, status: 500 },
    { name: 'a thrown null', make: () => null, status: 500 },
    { name: 'a thrown plain object with a symbol code', make: () => ({ code: Symbol('x'), message: 12 }), status: 500 },
    { name: 'an Error whose name getter throws', make: () => Object.defineProperty(new Error('x'), 'name', { get: () => { throw new Error('no name'); } }), status: 500 },
  ];
  const app = Fastify({ logger: false });

  beforeAll(async () => {
    await app.register(envelopePlugin);
    app.get('/throw/:i', async (request) => {
      throw odd[Number((request.params as { i: string }).i)]!.make();
    });
    await app.ready();
  });
  afterAll(() => app.close());

  for (const [i, { name, status }] of odd.entries()) {
    it(`answers ${name} with ${status} in the envelope`, async () => {
      const r = await app.inject({ method: 'GET', url: `/throw/${i}` });
      expect(r.statusCode).toBe(status);
      const body = r.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'message', 'status']);
      expect(body.status).toBe(status);
      expect(typeof body.message).toBe('string');
      expect(typeof body.data.code).toBe('string');
      if (status === 500) {
        expect(body).toEqual({ status: 500, message: expect.any(String), data: { code: 'unknown' } });
        // The fault is not named to the client.
        expect(r.body).not.toMatch(/is not a function|INVALID_ARGUMENT|no name|just text/);
      }
    });
  }
});

/**
 * Every paged route (every route whose query takes a `cursor`, from the API's own route list)
 * answers a malformed cursor with 400 in the envelope, signed in with a role its guard allows and
 * with path parameters that name something the caller may see.
 */
describe('a malformed cursor on every paged route', () => {
  let stack: Stack;
  const sessions = new Map<Role, { authorization: string; userId: string }>();
  const params = new Map<Role, Record<string, string>>();
  const MALFORMED = ['AAAA', 'not a cursor', 'eyJ4IjoxfQ', '%E2%80%94', 'WyJ4Il0', '-1', '12345678901234567890'];

  beforeAll(async () => {
    stack = await startStack();
    const roles: DemoRole[] = ['User', 'Tenant', 'Manager', 'HousingAmbassador', 'Admin'];
    const organization = await stack.db.selectFrom('organizations').select('id').orderBy('name').executeTakeFirstOrThrow();
    for (const role of roles) {
      const session = await signIn(stack.app, role);
      sessions.set(role, session);
      const household = await stack.db.selectFrom('households').select(['id', 'organization_id']).where('head_user_id', '=', session.userId).executeTakeFirst();
      const user = await stack.db.selectFrom('users').select('organization_id').where('id', '=', session.userId).executeTakeFirstOrThrow();
      const membership = { organization_id: user.organization_id ?? household?.organization_id ?? null };
      params.set(role, {
        userId: session.userId,
        ambassadorId: session.userId,
        organizationId: membership?.organization_id ?? organization.id,
        a: household?.id ?? '00000000-0000-4000-8000-000000000000',
        b: membership?.organization_id ?? organization.id,
      });
    }
  });
  afterAll(() => stack?.close());

  it('answers 400 in the envelope, never 5xx', async () => {
    const paged = stack.app.routeList.filter((r: RouteEntry) => r.method === 'GET' && r.query.includes('cursor'));
    expect(paged.length).toBeGreaterThan(15);
    expect(paged.map((r) => r.url)).toContain('/api/Operator/stuck');
    const failures: string[] = [];
    for (const route of paged) {
      const role = stack.app.routeGuards.get(`${route.method} ${route.url}`)?.[0];
      const headers = role ? { authorization: sessions.get(role)!.authorization } : {};
      const values = (role && params.get(role)) || {};
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => values[p] ?? '00000000-0000-4000-8000-000000000000');
      for (const cursor of MALFORMED) {
        const r = await stack.app.inject({ method: 'GET', url: `${path}?cursor=${encodeURIComponent(cursor)}&limit=25`, headers });
        const body = r.json();
        if (r.statusCode !== 400 || body.status !== 400 || !('data' in body)) failures.push(`${route.url} cursor=${cursor} -> ${r.statusCode} ${r.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers the case in the issue: stuck cases with a cursor Temporal did not make', async () => {
    const admin = sessions.get('Admin')!;
    const r = await stack.app.inject({ method: 'GET', url: '/api/Operator/stuck?cursor=AAAA&limit=25&days=14', headers: { authorization: admin.authorization } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ status: 400, message: 'Invalid cursor', data: { code: 'invalidCursor' } });
  });
});
