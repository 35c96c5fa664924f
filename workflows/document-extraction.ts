import { proxyActivities } from '@temporalio/workflow';
import type { createActivities } from '../activities';

type Activities = ReturnType<typeof createActivities>;

/**
 * Reading a document is CPU-heavy (OCR of a scan takes seconds): a few attempts, each with room
 * to finish; a file of a type that cannot be read is not retried.
 */
const reading = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: ['UnreadableDocument'] },
});
/** The failure mark is a database write: retried until PostgreSQL answers. */
const marking = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export interface DocumentExtractionInput {
  extractionId: string;
}

/**
 * The figures of one uploaded bank statement or pay stub (issue 19 item 3), read off the request
 * path by an activity; the result is stored sealed by the activity, and only its status passes
 * through here. Started by /api/v1/account-details.
 */
export async function documentExtraction(input: DocumentExtractionInput): Promise<'ready' | 'gone' | 'failed'> {
  try {
    return await reading.extractDocument(input);
  } catch {
    await marking.markExtractionFailed(input);
    return 'failed';
  }
}
