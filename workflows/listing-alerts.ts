import { continueAsNew, sleep, workflowInfo } from '@temporalio/workflow';
import { ALERT_FANOUT_BATCH, digestWeek, nextDigestWeek } from '../domain/listing-alerts';
import { slowWork } from './activity-proxies';

/** Batches per run before the history is restarted (each batch is one activity). */
const BATCHES_PER_RUN = 100;
/** Digests go out on Monday morning (UTC) for the week that just ended. */
const DIGEST_HOUR_MS = 9 * 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export interface ListingAlertsInput {
  opportunityId: string;
  /** The last alert id a batch read: where the next run starts (the only state carried). */
  after?: string | null;
}

/**
 * The fan-out of one published listing (id `listing-alerts/<opportunity id>`): pages through the
 * active alerts a batch at a time; each batch matches, writes the ledger and queues its notices in
 * one transaction (activities: alertFanOutBatch), so a batch retried after a crash sends nothing
 * twice. Only the cursor is in the history; a long fan-out continues as new.
 */
export async function listingAlerts(input: ListingAlertsInput): Promise<void> {
  let after = input.after ?? null;
  // One week for the whole fan-out, read once: a weekly alert's match lands in one digest.
  const now = Date.now();
  for (let i = 0; i < BATCHES_PER_RUN; i++) {
    const batch = await slowWork.alertFanOutBatch({ opportunityId: input.opportunityId, after, limit: ALERT_FANOUT_BATCH, now });
    if (batch.next === null) return;
    after = batch.next;
    if (workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof listingAlerts>({ opportunityId: input.opportunityId, after });
}

export interface ListingAlertDigestsInput {
  /** The week (its Monday) this run sends the digests of; the current week on the first run. */
  week?: string;
}

/**
 * The weekly digests (one workflow, `listing-alert-digests`): waits on a durable timer for the end
 * of the week, sends every weekly alert its digest of that week's matches (once per alert and
 * week, keyed), then continues as new for the next week. Costs nothing while it waits.
 */
export async function listingAlertDigests(input: ListingAlertDigestsInput = {}): Promise<void> {
  const week = input.week ?? digestWeek(new Date(Date.now()));
  const due = Date.parse(`${week}T00:00:00Z`) + WEEK_MS + DIGEST_HOUR_MS;
  const wait = due - Date.now();
  if (wait > 0) await sleep(wait);
  let after: string | null = null;
  do {
    const batch: { next: string | null } = await slowWork.alertDigestBatch({ week, after, limit: ALERT_FANOUT_BATCH });
    after = batch.next;
  } while (after !== null);
  await continueAsNew<typeof listingAlertDigests>({ week: nextDigestWeek(week) });
}
