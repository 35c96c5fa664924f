import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiPath, type OpenApiDocument } from '../../api/openapi/document';
import type { RouteEntry } from '../../api/plugins/route-list';
import { PATH_ID_PATTERNS, type Role } from '../../domain';
import { signIn, startStack, type DemoRole, type Stack } from '../helpers/stack';

type ParamSchema = { type?: string; enum?: string[]; pattern?: string; minLength?: number; maxLength?: number };

/** Malformed identifiers, as Schemathesis sent one: each as it goes in the URL. */
const MALFORMED = [
  { name: '36 zeros and .0', value: `${'0'.repeat(36)}.0` },
  { name: 'x', value: 'x' },
  { name: 'a very long string', value: 'a'.repeat(5000) },
  { name: 'unicode', value: encodeURIComponent('Ωé💥字') },
  { name: 'a uuid with a bad letter', value: '0000000g-0000-4000-8000-000000000000' },
];

/** A value each documented path format accepts, for the route's other parameters. */
const VALID: Record<string, () => string> = {
  [PATH_ID_PATTERNS.uuid]: () => randomUUID(),
  [PATH_ID_PATTERNS.offerId]: () => `${randomUUID()}.1`,
  [PATH_ID_PATTERNS.linkToken]: () => 'a'.repeat(43),
  [PATH_ID_PATTERNS.documentLink]: () => 'A'.repeat(70),
  [PATH_ID_PATTERNS.gtfsId]: () => 'ace',
};

/** Whether the document's schema of a path parameter allows a (decoded) value: lengths in code points, as JSON Schema counts. */
function allows(schema: ParamSchema, value: string): boolean {
  if (schema.enum) return schema.enum.includes(value);
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  return schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(value);
}

/**
 * Every route with a path parameter (read from the API's own route table), each parameter in turn
 * sent malformed, signed in with a role the route's guard allows so the request reaches validation
 * and the handler: the answer is never a 5xx, a refusal is in the envelope, and a value the OpenAPI
 * document's schema of that parameter forbids is refused by validation itself (400, or the router's
 * 414 for a segment over its limit), so the document says what the route enforces.
 */
describe('malformed identifiers in the path', () => {
  let stack: Stack;
  let doc: OpenApiDocument;
  const sessions = new Map<Role, { authorization: string }>();

  beforeAll(async () => {
    stack = await startStack();
    for (const role of ['User', 'Tenant', 'Manager', 'HousingAmbassador', 'Admin'] as DemoRole[]) sessions.set(role, await signIn(stack.app, role));
    doc = (await stack.app.inject({ url: '/api/openapi.json' })).json();
  });
  afterAll(() => stack?.close());

  const headersFor = (route: RouteEntry): Record<string, string> => {
    const role = stack.app.routeGuards.get(`${route.method} ${route.url}`)?.[0];
    return role ? { authorization: sessions.get(role)!.authorization } : {};
  };
  const paramSchemas = (route: RouteEntry): Record<string, ParamSchema> => {
    const op = (doc.paths[openapiPath(route.url)] as Record<string, { parameters?: { name: string; in: string; schema: ParamSchema }[] }> | undefined)?.[route.method.toLowerCase()];
    return Object.fromEntries((op?.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, p.schema]));
  };
  const validFor = (schema: ParamSchema | undefined): string => (schema?.enum ? schema.enum[0]! : (VALID[schema?.pattern ?? '']?.() ?? 'x'));

  it('never answers 5xx to a malformed value of every path parameter of every route, and refuses it by validation where the document forbids it', async () => {
    const routes = stack.app.routeList.filter((r) => r.url.startsWith('/api/') && r.params.length > 0 && !r.url.includes('*') && ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method));
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let tried = 0;
    for (const route of routes) {
      const schemas = paramSchemas(route);
      for (const param of route.params) {
        expect(schemas[param], `${route.method} ${route.url}: path parameter ${param} is documented`).toBeDefined();
        for (const bad of MALFORMED) {
          const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) => (p === param ? bad.value : encodeURIComponent(validFor(schemas[p]))));
          const body = route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} };
          const r = await stack.app.inject({ method: route.method as 'GET', url, headers: headersFor(route), ...body });
          tried++;
          const where = `${route.method} ${route.url} (${param} = ${bad.name}) -> ${r.statusCode}`;
          const forbidden = !allows(schemas[param]!, decodeURIComponent(bad.value));
          if (r.statusCode >= 500) failures.push(`${where} ${r.body.slice(0, 160)}`);
          else if (forbidden && ![400, 414].includes(r.statusCode)) failures.push(`${where}: the document forbids this value, yet it got past validation ${r.body.slice(0, 120)}`);
          else if (r.statusCode >= 400) {
            const answer = r.json();
            if (answer.status !== r.statusCode || typeof answer.message !== 'string' || typeof answer.data?.code !== 'string') failures.push(`${where}: outside the envelope`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(500);
  }, 300_000);

  it('refuses what the document forbids on the routes that let it through: a link token of astral characters, a malformed link, odd transit ids, blank coordinates', async () => {
    const user = sessions.get('User')!;
    const cases: { url: string; headers?: Record<string, string> }[] = [
      // 10 astral characters: 20 UTF-16 units, 10 code points (the document's minLength is in code points).
      { url: `/api/Account/check-reset-token/${encodeURIComponent('𝐀'.repeat(10))}` },
      { url: `/api/Account/check-reset-token/${'a'.repeat(20)}.b` },
      { url: `/api/Document/shared/${encodeURIComponent('not a link')}` },
      { url: `/api/GTFSRealtimeFeed/${encodeURIComponent('a c')}/117`, headers: user },
      { url: '/api/Dashboard/getDashboardData?lat=&lon=', headers: sessions.get('Tenant')! },
      { url: '/api/Dashboard/getDashboardData?lat=%2040&lon=-73', headers: sessions.get('Tenant')! },
      { url: '/api/Dashboard/getDashboardData?lat=0x10&lon=-73', headers: sessions.get('Tenant')! },
    ];
    for (const c of cases) {
      const r = await stack.app.inject({ method: 'GET', url: c.url, headers: c.headers ?? {} });
      expect(r.statusCode, `${c.url} ${r.body.slice(0, 200)}`).toBe(400);
      expect(r.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    }
    // What the formats let through still works: a number as clients write one.
    const ok = await stack.app.inject({ method: 'GET', url: '/api/Dashboard/getDashboardData?lat=40.7&lon=-7.4e1', headers: sessions.get('Tenant')! });
    expect([200, 404], ok.body.slice(0, 200)).toContain(ok.statusCode);
  });

  it('declines a relocation offer named by a malformed id with 400, before the database', async () => {
    const r = await stack.app.inject({ method: 'POST', url: `/api/Relocation/unit-offers/${'0'.repeat(36)}.0/decline`, headers: sessions.get('Tenant')! });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ status: 400, message: 'Invalid offer id', data: { code: 'validation', issues: [{ path: 'params.offerId' }] } });
  });
});
