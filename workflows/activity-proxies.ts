import { proxyActivities, proxyLocalActivities, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities';

/**
 * Every activity a workflow calls, by retry profile. Each profile is one stateless proxy, shared by
 * every workflow (the worker preloads workflows/ once); a workflow picks the profile that fits the
 * work, and the activity's name says what it does.
 */
type Activities = ReturnType<typeof createActivities>;

/** Our activities are idempotent, so an attempt that fails is retried until PostgreSQL or storage answers. */
const UNTIL_IT_ANSWERS: ActivityOptions['retry'] = { initialInterval: '1 second', maximumInterval: '1 minute' };

/** Projections, outbox inserts, log numbers and marks: one short transaction each. */
const WRITE: ActivityOptions = { startToCloseTimeout: '30 seconds', retry: UNTIL_IT_ANSWERS };
export const writes = proxyActivities<Activities>(WRITE);

/**
 * The same writes inside the workflow task that asks for them (no activity task, no further workflow
 * task): a lease-up case's and a lottery's projections, whose answer or page waits for them.
 */
export const localWrites = proxyLocalActivities<Activities>(WRITE);

/** Longer than a write: a letter's PDF rendered or stamped and stored, the day's due recertifications read across every tenancy. */
export const slowWork = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry: UNTIL_IT_ANSWERS });

/** The draw reads and ranks the whole list (100,000 rows): given ten minutes, still retried until it lands. */
export const draw = proxyActivities<Activities>({ startToCloseTimeout: '10 minutes', retry: { initialInterval: '5 seconds', maximumInterval: '1 minute' } });

/**
 * One case of a bulk batch: an Update to the case and its result row. Retried until it answers (its
 * Update ID makes a retry return the first outcome); a case's refusal is a result, not a failure.
 */
export const bulkCase = proxyActivities<Activities>({ startToCloseTimeout: '20 seconds', retry: { initialInterval: '1 second', maximumInterval: '30 seconds' } });

/**
 * Reading a document is CPU-heavy (OCR of a scan takes seconds): a few attempts, each with room to
 * finish; a file of a type that cannot be read is not retried.
 */
export const reading = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: ['UnreadableDocument'] },
});
