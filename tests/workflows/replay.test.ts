import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { dataConverter } from '../../infra/temporal/connection';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';

/**
 * Recorded histories of real runs (tests/histories, made with RECORD_HISTORIES=1) replayed through
 * the current workflow code: a change that would break a running workflow fails here, and must be
 * made with `patched()` instead.
 */
describe('workflow replay', async () => {
  const dir = 'tests/histories';
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();

  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  it.each(files)('replays %s deterministically', async (file) => {
    const history = historyFromJSON(JSON.parse(await readFile(join(dir, file), 'utf8')));
    const workflowType = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
    await Worker.runReplayHistory(
      {
        workflowBundle: { codePath: inject('workflowBundlePath') },
        dataConverter: dataConverter({ DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY }),
      },
      history,
      `replay-${file}`,
    );
    expect(['leaseUpApplication', 'recertification', 'relocation']).toContain(workflowType);
  });
});
