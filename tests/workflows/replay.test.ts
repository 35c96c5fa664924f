import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { dataConverter } from '../../infra/temporal/connection';
import { CASE_KIT_PATCH, LEASE_UP_CURRENT_PATCH } from '../../workflows/case/version';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';

/**
 * Recorded histories of real runs (made with RECORD_HISTORIES=1) replayed through the current
 * workflow code: a change that would break a running workflow fails here, and must be made with
 * `patched()` instead. `tests/histories/v1` holds runs from before the case kit (they replay through
 * the frozen version-1 code); `tests/histories` holds runs of the current code, one or more per type.
 */
describe('workflow replay', async () => {
  const dirs = ['tests/histories/v1', 'tests/histories'];
  const files = (await Promise.all(dirs.map(async (dir) => (await readdir(dir)).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f))))).flat();
  const load = async (file: string) => historyFromJSON(JSON.parse(await readFile(file, 'utf8')));
  const typeOf = (history: Awaited<ReturnType<typeof load>>) => history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
  // A lease-up run since LEASE_UP_CURRENT_PATCH records that marker in place of the case kit's.
  const hasCaseKitMarker = (history: Awaited<ReturnType<typeof load>>) =>
    (history.events ?? []).some((e) =>
      e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.some((p) => [CASE_KIT_PATCH, LEASE_UP_CURRENT_PATCH].some((id) => Buffer.from(p.data ?? []).toString().includes(`"${id}"`))),
    );

  // A lease-up case the API took (`startedAt` in its input) runs the current code with no marker at all.
  const codec = dataConverter({ DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY }).payloadCodecs[0]!;
  const takenByApi = async (history: Awaited<ReturnType<typeof load>>) => {
    const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    if (typeOf(history) !== 'leaseUpApplication' || input.length === 0) return false;
    const [decoded] = await codec.decode(input as never);
    return defaultPayloadConverter.fromPayload<{ startedAt?: string }>(decoded!).startedAt !== undefined;
  };

  it('has a recorded history of every workflow type, before and after the case kit', async () => {
    const current = await Promise.all(files.filter((f) => !f.includes('/v1/')).map(load));
    const old = await Promise.all(files.filter((f) => f.includes('/v1/')).map(load));
    expect(new Set(current.map(typeOf))).toEqual(new Set(['leaseUpApplication', 'recertification', 'relocation', 'recertificationSweep', 'accessGrant', 'lottery', 'supportTicket', 'bulkBatch', 'documentExtraction']));
    expect(new Set(old.map(typeOf))).toEqual(new Set(['leaseUpApplication', 'recertification', 'relocation']));
    // The version-1 runs never took the case-kit path; every current case run did (the access
    // grant, the lottery, the support ticket and the bulk batch were born on the kit, so they have no version-1 branch and no marker).
    expect(old.filter(hasCaseKitMarker)).toEqual([]);
    // The document extraction (issue 19) is no case: one activity and its failure mark.
    const kitRuns = current.filter((h) => !['recertificationSweep', 'accessGrant', 'lottery', 'supportTicket', 'bulkBatch', 'documentExtraction'].includes(typeOf(h) ?? ''));
    const taken = await Promise.all(kitRuns.map(takenByApi));
    expect(kitRuns.filter((h, i) => !taken[i]).every(hasCaseKitMarker)).toBe(true);
    // At least one such run is recorded, and it has no marker.
    expect(kitRuns.filter((h, i) => taken[i] && !hasCaseKitMarker(h)).length).toBeGreaterThan(0);
  });

  it.each(files)('replays %s deterministically', async (file) => {
    await Worker.runReplayHistory(
      {
        workflowBundle: { codePath: inject('workflowBundlePath') },
        dataConverter: dataConverter({ DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY }),
      },
      await load(file),
      `replay-${file}`,
    );
  });
});
