/**
 * The Node version the dependencies need is the one package.json's `engines` and the README state:
 * every installed package whose `engines.node` range does not admit the declared minimum fails this
 * test, unless it is named below with why it runs anyway (none today on Node 24).
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
const KNOWN: Record<string, string> = {};

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
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`Node.js ${minimum.replace(/(\.0)+$/, '')}+`);
    const refused = installed(join(ROOT, 'node_modules'))
      .filter((p) => semver.validRange(p.node) && !semver.satisfies(minimum, p.node))
      .filter((p) => !(p.name in KNOWN))
      .map((p) => `${p.name}@${p.version} needs node ${p.node}`);
    expect(refused).toEqual([]);
  });
});
