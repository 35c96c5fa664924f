import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SECRET_ROUTES } from '../../api/secret-routes';
import { signIn, startStack, type Stack } from '../helpers/stack';

/** A parameter or query name that says it carries a secret, or a path segment just before a parameter that does. */
const SECRET_NAME = /token|otp|code|secret|password|fileurl/i;

/**
 * No secret in a log. Every route of the API is checked against the list of routes whose
 * address carries a secret (api/secret-routes.ts), and every route is called with marker values in
 * its path and query: the log holds no query value of any route, and only the route pattern of the
 * listed ones.
 */
describe('secrets never reach the request log', () => {
  let stack: Stack;
  let user: { authorization: string };
  beforeAll(async () => {
    stack = await startStack();
    user = await signIn(stack.app, 'User');
  });
  afterAll(() => stack?.close());

  it('lists every route whose path or query carries a token, a code or a secret, and nothing that does not exist', () => {
    const routes = stack.app.routeList;
    const keys = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const listed of SECRET_ROUTES) expect(keys.has(listed), `${listed} is not a route`).toBe(true);
    const carriers = routes.filter((r) => {
      const names = [...r.params, ...r.query];
      const beforeParam = [...r.url.matchAll(/\/([^/:]+)\/:/g)].map((m) => m[1]!);
      return names.some((n) => SECRET_NAME.test(n)) || beforeParam.some((segment) => /token|otp/i.test(segment));
    });
    expect(carriers.length).toBeGreaterThanOrEqual(3);
    for (const r of carriers) expect(SECRET_ROUTES.has(`${r.method} ${r.url}`), `${r.method} ${r.url} carries a secret but is not listed`).toBe(true);
  });

  it('logs no query value of any route, and only the pattern of a listed route', async () => {
    const markers: { route: string; path: string[]; query: string[]; secret: boolean }[] = [];
    for (const route of stack.app.routeList.filter((r) => !r.url.includes('*') && !/\/(logout|exit-impersonation)$/.test(r.url))) {
      const mark = () => `mk${randomBytes(16).toString('hex')}`;
      const path: string[] = [];
      const url = route.url.replace(/:([A-Za-z0-9_]+)/g, () => {
        const m = mark();
        path.push(m);
        return m;
      });
      const query = [...new Set([...route.query, 'token', 'userId'])].map((k) => [k, mark()] as const);
      await stack.app.inject({ method: route.method as 'GET', url: `${url}?${query.map(([k, v]) => `${k}=${v}`).join('&')}`, headers: user });
      markers.push({ route: `${route.method} ${route.url}`, path, query: query.map(([, v]) => v), secret: SECRET_ROUTES.has(`${route.method} ${route.url}`) });
    }
    const log = await readFile(stack.logFile, 'utf8');
    expect(log).toContain('request completed');
    for (const m of markers) {
      for (const value of m.query) expect(log.includes(value), `query value of ${m.route} in the log`).toBe(false);
      if (m.secret) for (const value of m.path) expect(log.includes(value), `path value of ${m.route} in the log`).toBe(false);
    }
    // The listed routes appear by their pattern only.
    expect(log).toContain('"/api/Account/check-reset-token/:x"');
    expect(log).toContain('"/api/Signature/validateotp/otp/:x"');
  });

  it('logs a real reset token check, an email verification and an OTP validation by their pattern', async () => {
    const token = randomBytes(32).toString('base64url');
    await stack.app.inject({ method: 'GET', url: `/api/Account/check-reset-token/${token}` });
    await stack.app.inject({ method: 'GET', url: '/api/Signature/validateotp/otp/482913', headers: user });
    await stack.app.inject({ method: 'GET', url: `/api/Account/verify-email?userId=00000000-0000-4000-8000-000000000000&token=${token}` });
    const log = await readFile(stack.logFile, 'utf8');
    expect(log).not.toContain(token);
    expect(log).not.toContain('482913');
  });
});
