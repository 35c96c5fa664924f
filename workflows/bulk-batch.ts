import { continueAsNew, log, workflowInfo } from '@temporalio/workflow';
import type { StartBulkBatchInput } from '../domain/bulk';
import {
  BULK_BATCH_TABLE,
  BULK_CASES_PER_RUN,
  BULK_CONCURRENCY,
  BULK_PAGE_SIZE,
  bulkBatchFinished,
  bulkBatchView,
  initialBulkBatchState,
  type BulkBatchCaseView,
  type BulkBatchInputs,
  type BulkBatchRole,
  type BulkBatchState,
} from '../domain/bulk.table';
import { bulkCase, writes } from './activity-proxies';
import { bulkBatchMessages } from './bulk-batch.messages';
import { runCase, type CaseDefinition } from './case/run';

/** The next page of pending cases, sent BULK_CONCURRENCY at a time; a cancelled batch stops here. */
function nextPage(s: BulkBatchState) {
  if (bulkBatchFinished(s)) return null;
  return async () => {
    if (s.status === 'cancelling') {
      s.status = 'cancelled';
      return;
    }
    const { batchId, action, input, actor } = s.input;
    const page = await writes.bulkCasesPage({ batchId, ...(s.after ? { after: s.after } : {}), limit: BULK_PAGE_SIZE });
    if (page.length === 0) {
      s.status = 'completed';
      return;
    }
    const queue = [...page];
    const lane = async () => {
      for (let caseId = queue.shift(); caseId !== undefined; caseId = queue.shift()) {
        await bulkCase.applyBulkCase({ batchId, caseId, action, input, actor });
      }
    };
    await Promise.all(Array.from({ length: BULK_CONCURRENCY }, lane));
    s.after = page.at(-1) ?? s.after;
    s.processed += page.length;
    s.processedInRun += page.length;
  };
}

const bulkBatchCase: CaseDefinition<BulkBatchState, BulkBatchInputs, BulkBatchRole, BulkBatchCaseView, never> = {
  table: BULK_BATCH_TABLE,
  messages: bulkBatchMessages,
  finished: bulkBatchFinished,
  isFinal: (s) => bulkBatchFinished(s) !== null,
  view: bulkBatchView,
  fire: () => false,
  search: (_s, v) => ({ kind: 'bulk-batch', status: v.status, step: v.status, overdue: false }),
  effects: {},
  project: (view) => writes.projectBulkBatch(view),
  notify: (notice) => writes.sendNotice(notice),
  work: nextPage,
};

/**
 * A bulk action of a manager on the case kit: works through the batch's cases,
 * each changed once by its own Update (ID `bulk:<batch>:<case>`), projecting progress after every
 * page, and continues as new every BULK_CASES_PER_RUN cases so the history stays short.
 */
export async function bulkBatch(input: StartBulkBatchInput): Promise<string> {
  const s = await runCase(bulkBatchCase, initialBulkBatchState(input, new Date(Date.now()).toISOString()), {
    continueAsNewDue: (state) => state.processedInRun >= BULK_CASES_PER_RUN,
    continueAsNew: (state) =>
      continueAsNew<typeof bulkBatch>({
        ...state.input,
        ...(state.after ? { after: state.after } : {}),
        processed: state.processed,
        version: state.version,
        cancelled: state.status === 'cancelling',
      }),
  });
  log.info('bulk batch finished', { workflowId: workflowInfo().workflowId, status: s.status, processed: s.processed });
  return s.status;
}
