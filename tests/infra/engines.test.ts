/**
 * The Node version the dependencies need is the one package.json's `engines` and the
 * README state. Every installed package whose `engines.node` range does not admit the declared
 * minimum fails this test, except the three the README names (they declare >=22 and run on 20.19;
 * this suite runs on Node 20).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// npm's own range reader, installed with the tools (no types published with it).
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
};

const ROOT = new URL('../../', import.meta.url).pathname;
const KNOWN: Record<string, string> = {
  'content-disposition': 'through @fastify/static; declares >=22, runs on 20.19',
  cookie: "through fastify's light-my-request; declares >=22, runs on 20.19",
  // Generated protobufjs code; tests/api/dashboard-feeds.test.ts decodes feeds with it on Node 20.
  'gtfs-realtime-bindings': 'the MTA feed decoder; declares >=22, runs on 20.19',
};

function installed(dir: string, found: { name: string; version: string; node: string }[] = []) {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (entry.startsWith('@')) {
      installed(path, found);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) {
      const p = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string; engines?: { node?: string } };
      if (p.name && p.engines?.node) found.push({ name: p.name, version: p.version ?? '?', node: p.engines.node });
    }
    installed(join(path, 'node_modules'), found);
  }
  return found;
}

describe('dependencies and the declared Node version', () => {
  it("every installed package's engines range admits package.json's minimum Node", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const minimum = semver.minVersion(pkg.engines.node)!.version;
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`Node.js ${minimum.replace(/\.0$/, '')}+`);
    const refused = installed(join(ROOT, 'node_modules'))
      .filter((p) => semver.validRange(p.node) && !semver.satisfies(minimum, p.node))
      .filter((p) => !(p.name in KNOWN))
      .map((p) => `${p.name}@${p.version} needs node ${p.node}`);
    expect(refused).toEqual([]);
  });
});
