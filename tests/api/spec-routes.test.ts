import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { loadConfig } from '../../infra/config';
import { readSection7Calls, type SpecCall } from '../helpers/spec-calls';

/**
 * Spec section 7 as written: every call of an area that is built answers on the spec's method and
 * path (routes.tsv-style lines are read from the spec text itself, see tests/helpers/spec-calls.ts).
 * Only the route table is consulted, so the app is built without services.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SPEC_CANDIDATES = [process.env.PORTAL_SPEC, `${REPO}../shared/spec/portal-spec.md`, `${REPO}../../shared/spec/portal-spec.md`].filter(Boolean) as string[];

/** Groups of section 7 whose features are not built (tests/spec-coverage.md, "7 Calls"): every group is built. */
const NOT_BUILT_GROUPS: string[] = [];
/** Single calls of built groups that belong to features not built. */
const NOT_BUILT_CALLS: RegExp[] = [];

let app: FastifyInstance;
let calls: SpecCall[];

/** Section 7 as copied into the repository: the routes are always compared with this copy. */
const EXCERPT = readFileSync(`${REPO}tests/fixtures/spec-section-7.md`, 'utf8');
const section7 = (text: string) => text.slice(text.indexOf('## 7.'), text.indexOf('## 8.'));

beforeAll(async () => {
  calls = readSection7Calls(EXCERPT);
  const config = loadConfig({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused', TEMPORAL_ADDRESS: '127.0.0.1:1',
    BLOB_DRIVER: 'local', BLOB_DIR: '/nonexistent', JWT_SECRET: randomBytes(32).toString('hex'), DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), WEB_DIST: 'web/dist',
  });
  app = await buildApp({ config, db: {} as never, temporal: {} as never, blobs: {} as never });
  await app.ready();
});
afterAll(() => app?.close());

const built = (c: SpecCall) => !NOT_BUILT_GROUPS.includes(c.group) && !NOT_BUILT_CALLS.some((p) => p.test(c.path));

describe('spec section 7 routes', () => {
  // A clone on its own (CI's included) has no shared documents beside it: the routes are compared
  // with the copy in tests/fixtures; the copy is checked against its source where that is present.
  it.runIf(SPEC_CANDIDATES.some((p) => existsSync(p)))('the copy in tests/fixtures is section 7 of the spec, word for word', () => {
    const spec = SPEC_CANDIDATES.find((p) => existsSync(p))!;
    expect(section7(EXCERPT), 'tests/fixtures/spec-section-7.md is section 7 of the spec').toBe(section7(readFileSync(spec, 'utf8')));
  });

  it('reads the calls of section 7 from the spec text', () => {
    const lines = calls.map((c) => `${c.method} ${c.path}`);
    // A few the text states in each of its forms: explicit method, method in brackets, inferred.
    expect(lines).toEqual(expect.arrayContaining([
      'POST /api/Account/login', 'GET /api/Account/verify-email', 'PUT /api/Document/DocumentReviewReason',
      'PUT /api/Document/applytenantsignaturetotic/:id', 'GET /api/Lookups', 'POST /api/redirect/redirectToDestination',
      'POST /api/Household/UpdateApplicantOrMember', 'DELETE /api/Household/member/:id', 'GET /api/Household/profile',
      'POST /api/HouseholdAssets/UpdateEBTCardAssetFlag', 'DELETE /api/HouseholdAssets/EBTCards/:id', 'GET /api/Document/Preview',
      'GET /api/Relocation', 'POST /api/Relocation/:a/unit-offers/:b/accept', 'GET /api/UserProfile/profile-lock-status',
    ]));
    expect(calls.length).toBeGreaterThan(150);
  });

  it('serves every call of the areas built on the spec method and path', () => {
    expect(calls.some((c) => c.group === 'Ambassador'), 'the Ambassador group is read and checked').toBe(true);
    const table = calls.filter(built).map((c) => ({ line: `${c.method} ${c.path}`, served: Boolean(app.findRoute({ method: c.method, url: c.path })) }));
    const missing = table.filter((r) => !r.served).map((r) => r.line);
    console.log(`section 7: ${table.length} calls of the areas built checked, ${table.length - missing.length} served; not built: ${calls.length - table.length}`);
    expect(missing).toEqual([]);
  });
});
