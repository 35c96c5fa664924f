import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

/** The refusal code of a workflow Update (its validator's failure type), or undefined when accepted. */
export async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) return error.cause.type ?? undefined;
    throw error;
  }
  return undefined;
}
