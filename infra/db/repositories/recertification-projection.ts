import type { RecertView } from '../../../domain';
import type { Db } from '../database';
import { recertificationWorkflowId } from '../../temporal/ids';
import { projectCase, tenancyName } from './case-projection';
import { recordCertification } from './certification-records';

/** Writes a recertification's view into its read model and its open manager tasks into the shared inbox. */
export async function projectRecertification(db: Db, view: RecertView): Promise<{ written: boolean }> {
  // An approved cycle keeps what it certified, for the next cycle's case file.
  if (view.approvedAt) await recordCertification(db, { caseId: view.caseId, householdId: view.householdId, approvedAt: view.approvedAt });
  return projectCase(
    db,
    'recertification_cases',
    {
      id: view.caseId,
      workflow_id: recertificationWorkflowId(view.caseId),
      household_id: view.householdId,
      organization_id: view.organizationId,
      tenant_user_id: view.tenantUserId,
      kind: view.kind,
      deadline: view.deadline,
      stage: view.stage,
      status: view.status,
      profile_locked: view.profileLocked,
      tenant_signed: view.signers.length > 0 && view.signers.every((s) => s.signedAt !== null),
      pending_tasks: JSON.stringify(view.pendingTasks),
      started_at: view.startedAt,
      state_updated_at: view.updatedAt,
      state_version: view.version,
      view: JSON.stringify(view),
    },
    ['stage', 'status', 'profile_locked', 'tenant_signed'],
    {
      caseKind: 'recertification',
      step: view.stage,
      contextId: null,
      contextName: tenancyName(view.householdId),
      tasks: view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: t.overdue ?? view.status === 'expired' })),
    },
  );
}
