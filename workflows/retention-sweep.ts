import { log } from '@temporalio/workflow';
import { slowWork } from './activity-proxies';

/** Applications purged per activity call: one short transaction each, so a long backlog never holds a lock for long. */
const BATCH = 100;

export interface RetentionSweepResult {
  applications: number;
  documents: number;
  letters: number;
}

/**
 * The retention sweep, started once a day by the Temporal Schedule `retention-sweep`
 * (worker/retention-schedule.ts): purges, a batch at a time, the personal data of applications
 * closed longer than their organisation's retention period (activities/retention.ts says what is
 * kept, and which households are never touched). Its run reads "now" once, so every batch of one run
 * applies the same cut-off.
 */
export async function retentionSweep(): Promise<RetentionSweepResult> {
  const now = Date.now();
  const total: RetentionSweepResult = { applications: 0, documents: 0, letters: 0 };
  for (;;) {
    const batch = await slowWork.purgeExpiredApplications({ now, limit: BATCH });
    total.applications += batch.applications;
    total.documents += batch.documents;
    total.letters += batch.letters;
    if (!batch.more) break;
  }
  if (total.applications > 0) log.info('retention sweep purged applications', { ...total });
  return total;
}
