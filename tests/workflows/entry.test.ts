import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { StartLeaseUpInput, StartLotteryInput } from '../../domain';
import * as entry from '../../workflows/index';

/**
 * The worker's workflow entry loads each type's module only when a workflow of that type runs
 * (issue 11: memory per cached workflow). Every workflow function in `workflows/*.ts` must still be
 * reachable from it, under its own name, or the worker would fail every task of that type.
 */
describe('the workflow entry', () => {
  it('names every workflow function of workflows/*.ts in MODULES and exports each', async () => {
    const files = (await readdir('workflows')).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.endsWith('.messages.ts'));
    const declared: string[] = [];
    for (const file of files) {
      const source = await readFile(`workflows/${file}`, 'utf8');
      for (const match of source.matchAll(/^export (?:async )?function (\w+)/gm)) declared.push(match[1]!);
    }
    expect(declared.length).toBeGreaterThanOrEqual(7);
    expect(Object.keys(entry.MODULES).sort()).toEqual([...declared].sort());
    const exported = Object.keys(entry).filter((name) => name !== 'MODULES');
    expect(exported.sort()).toEqual([...declared].sort());
    for (const name of exported) expect(typeof (entry as unknown as Record<string, unknown>)[name], name).toBe('function');
  });

  it("loads, for each type, the module that defines that type's function", async () => {
    for (const [type, load] of Object.entries(entry.MODULES)) {
      const module = (await load()) as unknown as Record<string, unknown>;
      expect(typeof module[type], type).toBe('function');
    }
  });

  it('keeps each workflow function typed as its module declares it', () => {
    expectTypeOf(entry.leaseUpApplication).parameters.toEqualTypeOf<[StartLeaseUpInput]>();
    expectTypeOf(entry.lottery).parameter(0).toEqualTypeOf<StartLotteryInput>();
    expectTypeOf(entry.recertificationSweep).returns.toEqualTypeOf<Promise<void>>();
  });
});
