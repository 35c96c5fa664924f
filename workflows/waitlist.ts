import { condition, continueAsNew, log, setHandler, sleep } from '@temporalio/workflow';
import { WAITLIST_BATCH, checkInCycleDates, firstAskAt } from '../domain/waitlist-check-ins';
import { slowWork } from './activity-proxies';
import { checkInMonthsChanged, waitlistProgress, type WaitlistProgress, type WaitlistSweep } from './waitlist.messages';

export interface StartWaitlistInput {
  opportunityId: string;
  /** When the lottery was drawn (ISO): the first check-in is N months later. */
  drawnAt: string;
}

/** What one run hands the next: the cycle to run and the day the previous one asked. */
export interface CarriedWaitlist {
  cycle: number;
  lastAskAt: number | null;
  previous?: WaitlistProgress['previous'];
}

const SWEEPS = {
  ask: 'askCheckIns',
  remind: 'remindCheckIns',
  deactivate: 'deactivateUnanswered',
  remove: 'removeUnrestored',
} as const;

/**
 * One opportunity's waitlist, from its draw for as long as ranked households wait: every N months
 * (the opportunity's setting) each active household is asked whether it still wants its place, is
 * reminded after 14 days, becomes inactive after 30 without an answer, and is removed 30 days later
 * unless it restored its place (domain/waitlist-check-ins.ts has the dates).
 *
 * Not a case of workflows/case/run.ts: a case keeps its facts in its state and takes each action as
 * an Update, but a waitlist's facts are thousands of households. Their places stay in PostgreSQL, and
 * the answers (a button, a text YES, a returned letter, a restore) are guarded writes the API makes
 * there directly (infra/db/repositories/waitlist.ts): 10,000 answers a cycle as Updates would fill
 * this history and wake it for nothing. The workflow owns only the calendar: durable timers to each
 * day of the cycle, and sweeps in rank order a batch at a time, each a guarded update that a retry or
 * a late answer cannot turn wrong. Its history holds counts, cursors and dates; between days it
 * costs nothing, and it continues as new after every cycle.
 */
export async function waitlist(input: StartWaitlistInput, carried?: CarriedWaitlist): Promise<string> {
  const { cycle, lastAskAt, previous = null } = carried ?? { cycle: 1, lastAskAt: null };
  const progress: WaitlistProgress = { cycle, askAt: null, done: [], previous };
  let monthsChanged = false;
  setHandler(checkInMonthsChanged, () => {
    monthsChanged = true;
  });
  setHandler(waitlistProgress, () => progress);

  // Wait for this cycle's day; a new setting recomputes it (an earlier day wakes the wait at once).
  let askAt: number;
  for (;;) {
    const settings = await slowWork.waitlistSettings({ opportunityId: input.opportunityId });
    if (settings.closed || settings.waiting === 0) {
      log.info('waitlist ended', { cycle, closed: settings.closed });
      return settings.closed ? 'closed' : 'empty';
    }
    askAt = lastAskAt === null ? firstAskAt(Date.parse(input.drawnAt), settings.months) : checkInCycleDates(lastAskAt, settings.months).nextAskAt;
    progress.askAt = askAt;
    monthsChanged = false;
    const wait = askAt - Date.now();
    if (wait <= 0) break;
    if (!(await condition(() => monthsChanged, wait))) break;
  }

  const dates = checkInCycleDates(askAt, 1);
  const sweep = async (name: WaitlistSweep) => {
    let afterRank = 0;
    let count = 0;
    for (;;) {
      const batch = await slowWork[SWEEPS[name]]({ opportunityId: input.opportunityId, cycle, askAt, now: Date.now(), afterRank, limit: WAITLIST_BATCH });
      count += batch.count;
      if (batch.next === null) break;
      afterRank = batch.next;
    }
    progress.done.push({ sweep: name, count });
  };
  const until = (at: number) => sleep(Math.max(0, at - Date.now()));

  await sweep('ask');
  await until(dates.remindAt);
  await sweep('remind');
  await until(dates.inactiveAt);
  await sweep('deactivate');
  await until(dates.removeAt);
  await sweep('remove');
  log.info('waitlist check-in cycle done', { cycle, counts: progress.done.map((d) => d.count) });
  return continueAsNew<typeof waitlist>(input, { cycle: cycle + 1, lastAskAt: askAt, previous: { cycle, done: progress.done } });
}
