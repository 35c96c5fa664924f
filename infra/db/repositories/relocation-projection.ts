import type { RelocationView } from '../../../domain';
import type { Db } from '../database';
import { relocationWorkflowId } from '../../temporal/ids';
import { projectCase, tenancyName } from './case-projection';

/** Writes a relocation's view into its read model and its open manager tasks into the shared inbox. */
export async function projectRelocation(db: Db, view: RelocationView): Promise<{ written: boolean }> {
  return projectCase(
    db,
    'relocation_cases',
    {
      id: view.relocationId,
      workflow_id: relocationWorkflowId(view.relocationId),
      household_id: view.householdId,
      organization_id: view.organizationId,
      tenant_user_id: view.tenantUserId,
      status: view.status,
      under_relocation: view.underRelocation,
      ends_at: view.endsAt,
      pending_tasks: JSON.stringify(view.pendingTasks),
      started_at: view.startedAt,
      state_updated_at: view.updatedAt,
      state_version: view.version,
      view: JSON.stringify(view),
    },
    ['status', 'under_relocation', 'ends_at'],
    {
      caseKind: 'relocation',
      step: view.status,
      contextId: null,
      contextName: tenancyName(view.householdId),
      tasks: view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: t.overdue ?? false })),
    },
  );
}
