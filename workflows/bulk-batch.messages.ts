import type { BulkBatchCaseView, BulkBatchInputs, BulkBatchRole } from '../domain/bulk.table';
import { BULK_BATCH_ACTIONS } from '../domain/bulk.table';
import { caseMessages } from './case/messages';

/** Messages of the bulk-batch workflow (imported by the API): the Cancel Update and `getView`. */
export const bulkBatchMessages = caseMessages<BulkBatchInputs, BulkBatchRole, BulkBatchCaseView>(BULK_BATCH_ACTIONS);
export const bulkBatchUpdates = bulkBatchMessages.updates;
