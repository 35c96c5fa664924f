import { defineQuery, defineSignal } from '@temporalio/workflow';

/** The manager changed the months between check-ins: the waiting cycle recomputes its day. */
export const checkInMonthsChanged = defineSignal<[]>('CheckInMonthsChanged');

/** Where the waitlist's current cycle is: counts and dates only. */
export interface WaitlistProgress {
  cycle: number;
  /** The day this cycle asks (or asked), ms. */
  askAt: number | null;
  /** The sweeps this cycle has finished, in order, with how many households each touched. */
  done: { sweep: WaitlistSweep; count: number }[];
  /** The cycle before, as it ended (a run ends with its cycle: its last sweep is seen here). */
  previous: { cycle: number; done: { sweep: WaitlistSweep; count: number }[] } | null;
}
export type WaitlistSweep = 'ask' | 'remind' | 'deactivate' | 'remove';
export const waitlistProgress = defineQuery<WaitlistProgress>('waitlistProgress');
