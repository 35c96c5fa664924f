import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../api/plugins/route-list';
import type { Role } from '../../domain';
import { signIn, startStack, type DemoRole, type Stack } from '../helpers/stack';
import { multipart, tinyPdf } from '../helpers/household';

/** NUL, a lone high and a lone low surrogate: as JSON strings, and as they arrive percent-encoded in a URL. */
const BAD = [
  { name: 'NUL', text: 'a\u0000b', url: 'a%00b' },
  { name: 'lone high surrogate', text: 'a\uD800b', url: 'a%ED%A0%80b' },
  { name: 'lone low surrogate', text: '\uDFFFz', url: '%ED%BF%BFz' },
];
const SAMPLE: Record<string, string> = { id: '00000000-0000-4000-8000-000000000000', userId: '00000000-0000-4000-8000-000000000000' };

/**
 * Every text input refuses NUL characters and lone surrogates with a 4xx in the envelope,
 * on every route of the API (generated from its own route list), signed in with a role the route's
 * guard allows so the input reaches validation and the handler. Multipart errors, Fastify's own
 * refusals (414) and the codec endpoint answer 4xx in the envelope too.
 */
describe('odd input on every route', () => {
  let stack: Stack;
  const sessions = new Map<Role, { authorization: string }>();

  beforeAll(async () => {
    stack = await startStack();
    const roles: DemoRole[] = ['User', 'Tenant', 'Manager', 'HousingAmbassador', 'Admin'];
    for (const role of roles) sessions.set(role, await signIn(stack.app, role));
  });
  afterAll(() => stack?.close());

  const headersFor = (route: RouteEntry): Record<string, string> => {
    const roles = stack.app.routeGuards.get(`${route.method} ${route.url}`);
    if (!roles) return {};
    const role = roles[0];
    return role ? { authorization: sessions.get(role)!.authorization } : {};
  };

  const urlWith = (route: RouteEntry, value: (param: string) => string, query = '') =>
    `${route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => value(p))}${query}`;

  it('never answers 5xx to NUL characters or lone surrogates in a path, a query or a body', async () => {
    // Logout and exit-impersonation last: they end the session the other routes are called with.
    const endsSession = (r: RouteEntry) => /\/(logout|exit-impersonation)$/.test(r.url);
    const routes = stack.app.routeList
      .filter((r) => !r.url.includes('*') && r.url !== '/' && ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method))
      .sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)));
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let tried = 0;
    let refused = 0;
    for (const route of routes) {
      const headers = headersFor(route);
      for (const bad of BAD) {
        const attempts: { url: string; payload?: string }[] = [];
        if (route.params.length > 0) attempts.push({ url: urlWith(route, () => bad.url) });
        const query = [...new Set([...route.query, 'search'])].map((k) => `${k}=${bad.url}`).join('&');
        attempts.push({ url: urlWith(route, (p) => SAMPLE[p] ?? 'x', `?${query}`) });
        if (route.method !== 'GET' && route.method !== 'DELETE') {
          const keys = route.body.length > 0 ? route.body : ['username', 'email', 'name'];
          const body = Object.fromEntries(keys.map((k) => [k, bad.text]));
          attempts.push({ url: urlWith(route, (p) => SAMPLE[p] ?? 'x'), payload: JSON.stringify(body) });
          attempts.push({ url: urlWith(route, (p) => SAMPLE[p] ?? 'x'), payload: JSON.stringify({ nested: { list: [bad.text] } }) });
        }
        for (const attempt of attempts) {
          tried++;
          const r = await stack.app.inject({
            method: route.method as 'GET',
            url: attempt.url,
            headers: { ...headers, ...(attempt.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
            ...(attempt.payload !== undefined ? { payload: attempt.payload } : {}),
          });
          if (r.statusCode >= 500) failures.push(`${route.method} ${route.url} (${bad.name}) -> ${r.statusCode} ${r.body.slice(0, 120)}`);
          else if (r.statusCode >= 400) {
            refused++;
            const body = r.json();
            if (typeof body.status !== 'number' || !('data' in body)) failures.push(`${route.method} ${route.url}: ${r.statusCode} outside the envelope`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(tried / 2);
    // Fresh sessions for the tests below.
    for (const role of [...sessions.keys()]) sessions.set(role, await signIn(stack.app, role as DemoRole));
  }, 240_000);

  it('refuses the bad text itself with 400 naming where it was (not a later failure)', async () => {
    const r = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: 'app\u0000licant', password: 'x' } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ status: 400, message: 'Contains characters that are not allowed', data: { code: 'validation', issues: [{ path: 'body.username' }] } });
    // In a URL, invalid UTF-8 decodes to U+FFFD (no lone surrogate can arrive that way); NUL can.
    const q = await stack.app.inject({ method: 'GET', url: '/api/Opportunity/published-opportunities?search=a%00b', headers: sessions.get('User')! });
    expect(q.statusCode).toBe(400);
    expect(q.json().data.issues[0].path).toBe('querystring.search');
  });

  it('answers truncated or odd multipart bodies and bad file names with 4xx in the envelope', async () => {
    const user = sessions.get('User')!;
    const whole = multipart({ documentType: 'other' }, [{ name: 'a.pdf', body: tinyPdf() }]);
    const truncated = await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: whole.payload.subarray(0, whole.payload.length - 30), headers: { ...whole.headers, ...user } });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    const named = multipart({ documentType: 'other' }, [{ name: 'a\u0000.pdf', body: tinyPdf() }]);
    const badName = await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: named.payload, headers: { ...named.headers, ...user } });
    expect(badName.statusCode).toBe(400);
    const field = multipart({ documentType: 'other', reason: 'x\u0000y' }, [{ name: 'a.pdf', body: tinyPdf() }]);
    expect((await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: field.payload, headers: { ...field.headers, ...user } })).statusCode).toBe(400);
  });

  it("answers Fastify's own refusals in the envelope (414 for an over-long parameter), without echoing the address", async () => {
    const long = 'x'.repeat(500);
    const r = await stack.app.inject({ method: 'GET', url: `/api/Account/check-reset-token/${long}` });
    expect(r.statusCode).toBe(414);
    expect(r.json()).toEqual({ status: 414, message: 'The address is too long', data: { code: 'validation' } });
    expect(r.body).not.toContain(long);
  });

  it('answers a malformed codec payload with 400, not 500', async () => {
    const admin = sessions.get('Admin')!;
    await stack.app.inject({ method: 'POST', url: '/api/Operator/codec-reason', headers: admin, payload: { reason: 'Checking a malformed payload' } });
    const r = await stack.app.inject({
      method: 'POST',
      url: '/codec/decode',
      headers: admin,
      payload: { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64'), 'encryption-key-id': Buffer.from('nope').toString('base64') }, data: 'AAAA' }] },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
  });
});
