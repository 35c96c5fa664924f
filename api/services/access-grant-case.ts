import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { statusOfRefusal, type AccessGrantAction, type AccessGrantCaseView, type AccessGrantRole, type CaseActor, type MessageCode, type StartAccessGrantInput } from '../../domain';
import { projectAccessGrant } from '../../activities/access-grant';
import type { Db } from '../../infra/db/database';
import { accessGrantWorkflowId } from '../../infra/temporal/ids';
import { accessGrantUpdates } from '../../workflows/access-grant.messages';
import { HttpError } from '../errors';

/** What the API needs to carry a grant to its durable case. */
export interface GrantCaseDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/**
 * Starts the durable case of a grant the household has just given (its notice and expiry timers).
 * One per grant: a second start with the same ID is refused by Temporal, even after the first ended.
 */
export async function startGrantCase(deps: GrantCaseDeps, input: StartAccessGrantInput): Promise<void> {
  await deps.temporal.workflow.start('accessGrant', {
    workflowId: accessGrantWorkflowId(input.grantId),
    taskQueue: deps.taskQueue,
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    workflowIdConflictPolicy: 'FAIL',
    args: [input],
  });
}

/**
 * Carries one action to a grant's case as the Update of its name and writes the answered view into
 * the row at once (the projection the workflow also runs, version-guarded), so an ended access stops
 * the very next impersonated request. Null when the grant has no running case (given before grants
 * had one, or already ended): the caller then applies the same rules to the row.
 */
export async function actOnGrantCase(
  deps: Pick<GrantCaseDeps, 'db' | 'temporal'>,
  grantId: string,
  action: AccessGrantAction,
  actor: { userId: string; role: AccessGrantRole },
): Promise<AccessGrantCaseView | null> {
  try {
    const view = await deps.temporal.workflow
      .getHandle(accessGrantWorkflowId(grantId))
      .executeUpdate(accessGrantUpdates[action] as UpdateDefinition<AccessGrantCaseView, [{ actor: CaseActor<AccessGrantRole> }]>, { args: [{ actor: { ...actor, impersonatedBy: null } }] });
    await projectAccessGrant(deps.db, view);
    return view;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError || (error instanceof Error && /workflow execution already completed/i.test(error.message))) return null;
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type) {
      throw new HttpError(statusOfRefusal(error.cause.type), error.cause.type as MessageCode | 'validation', error.cause.message);
    }
    throw error;
  }
}
