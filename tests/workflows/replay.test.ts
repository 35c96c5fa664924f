import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import type { StartLeaseUpInput } from '../../domain';
import { dataConverter } from '../../infra/temporal/connection';
import * as entry from '../../workflows/index';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';

const DIR = 'tests/histories';

/**
 * Recorded histories of real runs (made with RECORD_HISTORIES=1 by the workflow tests) replayed
 * through the worker's bundle of the current code: a change that would break a running workflow
 * fails here, and must be made with `patched()` instead. Every workflow type the worker registers
 * (the exports of workflows/index.ts) has at least one.
 */
describe('workflow replay', async () => {
  const files = (await readdir(DIR)).filter((f) => f.endsWith('.json')).sort();
  const load = async (file: string) => historyFromJSON(JSON.parse(await readFile(join(DIR, file), 'utf8')));
  type History = Awaited<ReturnType<typeof load>>;
  const typeOf = (history: History) => history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
  const converter = dataConverter({ DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY });
  const inputOf = async (history: History) => {
    const [payload] = await converter.payloadCodecs[0]!.decode((history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? []) as never);
    return defaultPayloadConverter.fromPayload<StartLeaseUpInput>(payload!);
  };

  it('has a recorded history of every workflow type the worker registers, and of both ways a lease-up case starts', async () => {
    const histories = await Promise.all(files.map(load));
    const recorded = new Set(histories.map(typeOf));
    const registered = Object.keys(entry);
    expect(registered.length).toBeGreaterThanOrEqual(9);
    expect(registered.filter((type) => !recorded.has(type)), 'workflow types without a recorded history in tests/histories').toEqual([]);
    expect([...recorded].filter((type) => !registered.includes(type ?? '')), 'recorded histories of no registered type').toEqual([]);
    // A first-come application the API took (its first view projected, `startedAt` given) and a case
    // whose run issues its log number and projects its first view (as a lottery's invitation does).
    const leaseUps = await Promise.all(histories.filter((h) => typeOf(h) === 'leaseUpApplication').map(inputOf));
    expect(leaseUps.some((input) => input.startedAt !== undefined && input.logNumber !== undefined)).toBe(true);
    expect(leaseUps.some((input) => input.startedAt === undefined && input.lottery !== undefined)).toBe(true);
  });

  it.each(files)('replays %s deterministically', async (file) => {
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter: converter }, await load(file), `replay-${file}`);
  });
});
