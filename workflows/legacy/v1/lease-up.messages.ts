import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ActionInput, LeaseUpAction, LeaseUpView } from './domain';
import { LeaseUpActionName } from './domain';

/**
 * Messages of the lease-up workflow. The API imports this module (never the workflow itself).
 * Every applicant and manager action is an Update named after the action (spec section 4); its
 * validator refuses what the current state does not allow, and it returns the new view.
 */
export const leaseUpUpdates = Object.fromEntries(
  LeaseUpActionName.options.map((name) => [name, defineUpdate<LeaseUpView, [ActionInput]>(name)]),
) as Record<LeaseUpAction, ReturnType<typeof defineUpdate<LeaseUpView, [ActionInput]>>>;

/** Current step, timeline, pending tasks and available actions of each role. */
export const getLeaseUpView = defineQuery<LeaseUpView>('getView');
