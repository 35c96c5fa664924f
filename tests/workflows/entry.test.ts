import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, expectTypeOf, inject, it } from 'vitest';
import type { StartLeaseUpInput, StartLotteryInput } from '../../domain';
import * as entry from '../../workflows/index';

/**
 * The worker's workflow entry exports every workflow type, and the worker's bundle of it is one
 * module that the worker preloads and every workflow shares (worker/create-worker.ts).
 */
describe('the workflow entry', () => {
  it('exports every workflow function of workflows/*.ts under its own name', async () => {
    const files = (await readdir('workflows')).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.endsWith('.messages.ts'));
    const declared: string[] = [];
    for (const file of files) {
      const source = await readFile(`workflows/${file}`, 'utf8');
      for (const match of source.matchAll(/^export (?:async )?function (\w+)/gm)) declared.push(match[1]!);
    }
    expect(declared.length).toBeGreaterThanOrEqual(9);
    expect(Object.keys(entry).sort()).toEqual([...declared].sort());
    for (const name of Object.keys(entry)) expect(typeof (entry as unknown as Record<string, unknown>)[name], name).toBe('function');
  });

  it('is bundled as one module holding workflows/, domain/ and zod (only its exports are frozen when shared)', async () => {
    // The bundle the tests' workers run, built by bundleWorkflows in the global setup.
    const code = await readFile(inject('workflowBundlePath'), 'utf8');
    const modules = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"$/gm)].map((m) => m[1]!);
    expect(modules).toContain('./workflows/index.ts');
    // A module of ours or zod's left outside would be deep-frozen by the SDK when shared: zod's
    // parsing writes to its schemas and regexes and would throw; our constants would be frozen.
    const outside = modules.filter((id) => /^\.\/(?:domain|workflows)\/|^\.\/node_modules\/(?:zod|async-mutex)\//.test(id) && id !== './workflows/index.ts');
    expect(outside).toEqual([]);
    // ...and the worker evaluates it once, before any workflow, instead of once per workflow.
    expect(code).toMatch(/exports\.preloadModules = function preloadModules\(\) \{\n\s+__webpack_require__\([^\n]*"\.\/workflows\/index\.ts"\);\n\}/);
  });

  it('keeps each workflow function typed as its module declares it', () => {
    expectTypeOf(entry.leaseUpApplication).parameters.toEqualTypeOf<[StartLeaseUpInput]>();
    expectTypeOf(entry.lottery).parameter(0).toEqualTypeOf<StartLotteryInput>();
    expectTypeOf(entry.recertificationSweep).returns.toEqualTypeOf<Promise<void>>();
  });
});
