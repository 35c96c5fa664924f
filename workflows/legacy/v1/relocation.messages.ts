import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { RelocationAction, RelocationActionInput, RelocationView } from './domain';
import { RelocationActionName } from './domain';

/** Messages of the relocation workflow (imported by the API). One Update per action, named after it. */
export const relocationUpdates = Object.fromEntries(
  RelocationActionName.options.map((name) => [name, defineUpdate<RelocationView, [RelocationActionInput]>(name)]),
) as Record<RelocationAction, ReturnType<typeof defineUpdate<RelocationView, [RelocationActionInput]>>>;

export const getRelocationView = defineQuery<RelocationView>('getView');
