import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { openapiPath, type OpenApiDocument } from '../../api/openapi/document';
import { DECLARED, declaredAnswers } from '../../api/openapi/operations';
import { PATH_ID_PATTERNS, PATH_TEXT_MAX } from '../../domain';
import { startStack, type Stack } from '../helpers/stack';

type Operation = {
  operationId: string;
  summary?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: unknown[];
  'x-roles'?: string[];
  parameters?: { name: string; in: string; schema?: { enum?: unknown[]; pattern?: string }; examples?: Record<string, { value: unknown }> }[];
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: { status: number; message: string; data: unknown } }> }> }>;
};
type Flow = { name: string; steps: { operationId: string; example: string; bearerTokenFrom?: string; save?: Record<string, string> }[] };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of the document as `[METHOD, path, operation]`. */
function operations(doc: OpenApiDocument): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => [m.toUpperCase(), path, (item as Record<string, Operation>)[m]!] as [string, string, Operation]),
  );
}

/**
 * The OpenAPI document is generated from the routes as served. It is a valid OpenAPI 3.1
 * document (checked by @readme/openapi-parser), lists exactly the served /api routes, names for each
 * guarded one the roles its guard allows, and every example in it replays against the running API
 * with the documented status.
 */
describe('the OpenAPI document', () => {
  let stack: Stack;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    stack = await startStack();
    const r = await stack.app.inject({ url: '/api/openapi.json' });
    expect(r.statusCode).toBe(200);
    doc = r.json();
  });
  afterAll(() => stack?.close());

  it('is valid OpenAPI 3.1 and lists every served /api route, and only those', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);

    const served = [...new Set(stack.app.routeList.filter((r) => r.url.startsWith('/api/') && !['HEAD', 'OPTIONS'].includes(r.method)).map((r) => `${r.method} ${openapiPath(r.url)}`))].sort();
    const documented = operations(doc).map(([method, path]) => `${method} ${path}`).sort();
    expect(served.length).toBeGreaterThan(100);
    expect(documented.filter((r) => !served.includes(r)), 'documented but not served').toEqual([]);
    expect(served.filter((r) => !documented.includes(r)), 'served but not documented').toEqual([]);
  });

  it('gives every operation a summary, a section-7 tag, its refusals and its security', () => {
    for (const [method, path, op] of operations(doc)) {
      const where = `${method} ${path}`;
      expect(op.summary, where).toMatch(/^[A-Z]/);
      expect(op.tags?.length, where).toBe(1);
      expect(Object.keys(op.responses).length, where).toBeGreaterThan(0);
      if (op['x-roles']) {
        expect(op.security, where).toEqual([{ bearerAuth: [] }]);
        expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['401', '403']));
      } else expect(op.security, where).toEqual([]);
    }
    expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const tags = (doc.tags as { name: string }[]).map((t) => t.name);
    expect(tags).toEqual(expect.arrayContaining(['Auth', 'Household', 'Applications', 'Documents', 'Opportunities', 'Support tickets']));
    // A paged list documents its cursor and answers a page.
    const list = doc.paths['/api/LeaseUpApplication/getApplications']!.get as unknown as Operation;
    expect(list.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['cursor', 'limit']));
    expect(JSON.stringify(list.responses['2XX'])).toContain('#/components/schemas/Page');
  });

  it("lists for every operation the statuses the shared plugins answer, its path formats, and the media types of answers outside the envelope", () => {
    const ids = Object.values(PATH_ID_PATTERNS) as string[];
    for (const [method, path, op] of operations(doc)) {
      if (path === '/api/openapi.json') continue;
      const where = `${method} ${path}`;
      const statuses = Object.keys(op.responses);
      // A malformed address is the envelope's 400 on every route.
      expect(statuses, where).toContain('400');
      if (path.includes('{')) expect(statuses, where).toEqual(expect.arrayContaining(['404', '414']));
      if (method !== 'GET') expect(statuses, where).toEqual(expect.arrayContaining(['413', '415']));
      for (const p of (op.parameters ?? []).filter((x) => x.in === 'path')) {
        // An identifier's format is one of domain/ids.ts's; any other path parameter is an enum or a pattern.
        if (/^(id|.*Id)$/.test(p.name)) expect(p.schema?.enum ?? ids.includes(p.schema?.pattern ?? ''), `${where} ${p.name}: ${JSON.stringify(p.schema)}`).toBeTruthy();
        // The router answers 414 past 100 characters: a documented length stays below, so one just over it is a 400.
        expect((p.schema as { maxLength?: number } | undefined)?.maxLength ?? 0, `${where} ${p.name}`).toBeLessThanOrEqual(PATH_TEXT_MAX);
      }
    }
    const op = (method: string, path: string) => (doc.paths[path] as Record<string, Operation>)[method]!;
    const mediaTypes = (o: Operation) => Object.keys(o.responses['2XX']?.content ?? {});
    expect(mediaTypes(op('get', '/api/Chat/events'))).toEqual(['text/event-stream']);
    expect(mediaTypes(op('get', '/api/SupportTicket/events'))).toEqual(['text/event-stream']);
    expect(mediaTypes(op('get', '/api/Household/my-data/export'))).toEqual(['application/zip']);
    expect(mediaTypes(op('get', '/api/OpportunityLottery/{opportunityId}/ranked.csv'))).toEqual(['text/csv']);
    expect(mediaTypes(op('get', '/api/LeaseUpApplication/letter/{id}/{kind}'))).toEqual(['application/pdf']);
    expect(mediaTypes(op('get', '/api/Document/Download/{id}'))).toContain('application/pdf');
    for (const [route, answers] of Object.entries(DECLARED)) {
      const [method, url] = route.split(' ') as [string, string];
      const declared = op(method.toLowerCase(), openapiPath(url));
      expect(declared, route).toBeDefined();
      if (answers.produces) expect(mediaTypes(declared), route).toEqual([...answers.produces]);
      for (const status of Object.keys(answers.statuses ?? {})) expect(Object.keys(declared.responses), route).toContain(status);
    }
    expect(Object.keys(op('get', '/api/Account/check-reset-token/{x}').responses)).toEqual(expect.arrayContaining(['410', '429']));
    // Public routes that still answer 401 or 404 of their own.
    expect(Object.keys(op('post', '/api/Account/refresh-token').responses)).toContain('401');
    expect(Object.keys(op('post', '/api/ProfileMatch/MatchProfile').responses)).toContain('404');
    // An event of a stream is described as a reader parses it (its fields), not as one string.
    expect((op('get', '/api/Chat/events').responses['2XX'] as { content: Record<string, { schema: { type: string } }> }).content['text/event-stream']!.schema.type).toBe('object');
    expect(mediaTypes(op('get', '/api/Lookups'))).toEqual(['application/json']);
    // A route adds statuses of its own in its config; the list keeps what DECLARED says.
    expect(declaredAnswers('GET', '/api/Account/check-reset-token/:x', { statuses: { 409: 'x' } }).statuses).toEqual({ 410: expect.any(String), 409: 'x' });
  });

  it("names for every guarded route exactly the roles its guard allows (what the route matrix test checks)", () => {
    const byRoute = new Map(operations(doc).map(([method, path, op]) => [`${method} ${path}`, op]));
    let guarded = 0;
    for (const [route, roles] of stack.app.routeGuards) {
      const [method, url] = route.split(' ') as [string, string];
      if (!url.startsWith('/api/') || method === 'HEAD') continue;
      guarded++;
      expect([...(byRoute.get(`${method} ${openapiPath(url)}`)?.['x-roles'] ?? [])].sort(), route).toEqual([...roles].sort());
    }
    expect(guarded).toBeGreaterThan(100);
  });

  it('marks the other methods kept for the web app as deprecated aliases', () => {
    const item = doc.paths['/api/HouseholdAssets/UpdateAssetFlag'] as Record<string, Operation>;
    expect(item.post!.deprecated).toBeUndefined();
    expect(item.put!.deprecated).toBe(true);
    expect((doc.paths['/api/Household/UpdateApplicantOrMember'] as Record<string, Operation>).put!.deprecated).toBe(true);
    expect(operations(doc).filter(([, , op]) => op.deprecated).length).toBeGreaterThanOrEqual(5);
  });

  it('replays every example of the main flows against the API and gets the documented status', async () => {
    const flows = doc['x-example-flows'] as Flow[];
    expect(flows.map((f) => f.name)).toEqual(['Sign in', 'Apply', 'Act on a case', 'Page a list']);
    const byId = new Map(operations(doc).map(([method, path, op]) => [op.operationId, { method, path, op }]));
    const vars: Record<string, unknown> = {};
    const fill = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
      expect(vars[name], `flow variable ${name}`).toBeDefined();
      return String(vars[name]);
    }));
    const replayed = new Set<string>();
    for (const flow of flows) {
      for (const step of flow.steps) {
        const found = byId.get(step.operationId);
        expect(found, step.operationId).toBeDefined();
        const { method, path, op } = found!;
        const example = (where: string) => Object.fromEntries((op.parameters ?? []).filter((p) => p.in === where && p.examples?.[step.example]).map((p) => [p.name, String(fill(p.examples![step.example]!.value))]));
        const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(example('path')[name]!));
        const query = new URLSearchParams(example('query')).toString();
        const body = op.requestBody?.content['application/json']?.examples?.[step.example];
        const [status, answer] = Object.entries(op.responses).flatMap(([code, r]) => {
          const value = r.content?.['application/json']?.examples?.[step.example]?.value;
          return value ? [[Number(code), value] as const] : [];
        })[0]!;
        const r = await stack.app.inject({
          method: method as 'GET',
          url: query ? `${url}?${query}` : url,
          headers: step.bearerTokenFrom ? { authorization: `Bearer ${String(vars[step.bearerTokenFrom])}` } : {},
          ...(body ? { payload: fill(body.value) as object } : {}),
        });
        const where = `${flow.name}: ${step.example} (${method} ${url})`;
        expect(r.statusCode, `${where} ${r.body.slice(0, 200)}`).toBe(status);
        const got = r.json();
        expect(got.status, where).toBe(answer.status);
        expect(got.message, where).toBe(answer.message);
        if (status >= 400) expect(got.data.code, where).toBe((answer.data as { code: string }).code);
        for (const [name, at] of Object.entries(step.save ?? {})) {
          vars[name] = at.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], got);
          expect(vars[name], `${where} saves ${name}`).toBeTruthy();
        }
        replayed.add(`${step.operationId} ${step.example}`);
      }
    }
    // Every example in the document belongs to a replayed step.
    const inDocument = operations(doc).flatMap(([, , op]) =>
      Object.values(op.responses).flatMap((r) => Object.keys(r.content?.['application/json']?.examples ?? {}).map((name) => `${op.operationId} ${name}`)),
    );
    expect(inDocument.length).toBeGreaterThanOrEqual(10);
    expect(inDocument.filter((e) => !replayed.has(e))).toEqual([]);
  });

  it('serves a browsable page of the document from this app alone (no outside script)', async () => {
    const page = await stack.app.inject({ url: '/api-docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/src="https?:/);
    for (const asset of ['/api-docs/static/swagger-ui-bundle.js', '/api-docs/static/swagger-initializer.js', '/api-docs/json']) {
      expect((await stack.app.inject({ url: asset })).statusCode, asset).toBe(200);
    }
    expect((await stack.app.inject({ url: '/api-docs/json' })).json().openapi).toBe('3.1.0');
  });
});
