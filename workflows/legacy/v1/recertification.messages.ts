import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { RecertAction, RecertActionInput, RecertView } from './domain';
import { RecertActionName } from './domain';

/**
 * Messages of the recertification workflow; the API imports this module, never the workflow.
 * Every tenant and manager action is an Update named after the action; its validator refuses what
 * the current stage does not allow (spec section 8 texts) and it returns the new view.
 */
export const recertificationUpdates = Object.fromEntries(
  RecertActionName.options.map((name) => [name, defineUpdate<RecertView, [RecertActionInput]>(name)]),
) as Record<RecertAction, ReturnType<typeof defineUpdate<RecertView, [RecertActionInput]>>>;

/** Stage, signers, notices, pending tasks and available actions of each role. */
export const getRecertificationView = defineQuery<RecertView>('getView');
