import { writeFile } from 'node:fs/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

/**
 * With `RECORD_HISTORIES=1`, saves a workflow's history as tests/histories/<name>.json; those files
 * are replayed through the current code by tests/workflows/replay.test.ts on every run.
 */
export async function recordHistory(name: string, handle: WorkflowHandle): Promise<void> {
  if (!process.env.RECORD_HISTORIES) return;
  await writeFile(`tests/histories/${name}.json`, historyToJSON(await handle.fetchHistory()) + '\n');
}
