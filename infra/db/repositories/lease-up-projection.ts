import { sql } from 'kysely';
import type { LeaseUpView } from '../../../domain';
import type { Db } from '../database';
import { leaseUpWorkflowId } from '../../temporal/ids';
import { projectCase } from './case-projection';
import { declaredIncomeColumns } from './declared-income';

/**
 * Writes the application's view into the `applications` read model and its open manager tasks into
 * the shared inbox (case-projection.ts: idempotent, version-guarded).
 */
export async function projectApplication(db: Db, view: LeaseUpView): Promise<{ written: boolean }> {
  const result = await projectCase(
    db,
    'applications',
    {
      id: view.applicationId,
      workflow_id: leaseUpWorkflowId(view.applicationId),
      household_id: view.householdId,
      opportunity_id: view.opportunityId,
      organization_id: view.organizationId,
      applicant_user_id: view.applicantUserId,
      log_number: view.logNumber,
      status: view.status,
      current_step: view.currentStep,
      pending_tasks: JSON.stringify(view.pendingTasks),
      household_size: view.householdSize,
      ...declaredIncomeColumns(view.householdIncome),
      applied_at: view.appliedAt,
      state_updated_at: view.updatedAt,
      state_version: view.version,
      // Older views (before unit offers existed) carry no held unit.
      held_unit_id: view.heldUnitId ?? null,
      // The declared income is sealed in its own column: the stored view leaves it out (cases.ts puts it back).
      view: JSON.stringify({ ...view, householdIncome: undefined }),
    },
    ['log_number', 'status', 'current_step', 'held_unit_id', 'household_size', 'household_income', 'household_income_encrypted'],
    {
      caseKind: 'lease_up',
      step: view.currentStep,
      contextId: view.opportunityId,
      contextName: sql<string | null>`(select name from opportunities where id = ${view.opportunityId})`,
      tasks: view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: t.overdue ?? false })),
    },
  );
  // A withdrawn or closed application gives its appointment time back to the others.
  if (view.status === 'withdrawn' || view.status === 'closed') {
    await db.deleteFrom('appointment_bookings').where('application_id', '=', view.applicationId).execute();
  }
  return result;
}
