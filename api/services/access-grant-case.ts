import type { Client } from '@temporalio/client';
import type { AccessGrantAction, AccessGrantCaseView, AccessGrantRole, StartAccessGrantInput } from '../../domain';
import type { Db } from '../../infra/db/database';
import { accessGrantWorkflowId } from '../../infra/temporal/ids';
import { ACCESS_GRANT_KIND } from './case-kinds';
import { tryActOnCase } from './cases';

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
 * Carries one action to a grant's case through the case service, which writes the answered view
 * into the row at once, so an ended access stops the very next impersonated request. The actor is
 * the person themselves (a grant is never changed while impersonating). Null when the grant has no
 * running case (given before grants had one, or already ended): the caller then applies the same
 * rules to the row.
 */
export async function actOnGrantCase(
  deps: Pick<GrantCaseDeps, 'db' | 'temporal'>,
  grantId: string,
  action: AccessGrantAction,
  actor: { userId: string; role: AccessGrantRole },
): Promise<AccessGrantCaseView | null> {
  return tryActOnCase(deps, ACCESS_GRANT_KIND, grantId, action, {}, { actor: { ...actor, impersonatedBy: null }, projected: null });
}
