import { sql } from 'kysely';
import type { LeaseUpView } from '../domain';
import type { Db } from '../infra/db/database';
import { leaseUpWorkflowId } from '../workflows/ids';
import { projectCaseTasks } from './manager-tasks';

/**
 * Writes the workflow's view into the applications read model, and the case's open manager tasks
 * into the shared inbox (activities/manager-tasks.ts). Idempotent: a repeated projection writes the
 * same rows, and an older version (a retry arriving late) never overwrites a newer one.
 */
export async function projectApplication(db: Db, view: LeaseUpView): Promise<{ written: boolean }> {
  const row = {
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
    household_income: view.householdIncome,
    applied_at: view.appliedAt,
    state_updated_at: view.updatedAt,
    state_version: view.version,
  };
  const result = await db
    .insertInto('applications')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet((eb) => ({
          log_number: eb.ref('excluded.log_number'),
          status: eb.ref('excluded.status'),
          current_step: eb.ref('excluded.current_step'),
          pending_tasks: eb.ref('excluded.pending_tasks'),
          state_updated_at: eb.ref('excluded.state_updated_at'),
          state_version: eb.ref('excluded.state_version'),
          projected_at: sql<Date>`now()`,
        }))
        .where('applications.state_version', '<', (eb) => eb.ref('excluded.state_version')),
    )
    .executeTakeFirst();
  const opportunity = await db.selectFrom('opportunities').select('name').where('id', '=', view.opportunityId).executeTakeFirst();
  await projectCaseTasks(db, {
    caseKind: 'lease_up',
    caseId: view.applicationId,
    organizationId: view.organizationId,
    householdId: view.householdId,
    step: view.currentStep,
    contextId: view.opportunityId,
    contextName: opportunity?.name ?? null,
    version: view.version,
    tasks: view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt })),
  });
  return { written: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

/** Issues the application's log number once; asking again returns the same number. */
export async function issueLogNumber(db: Db, applicationId: string): Promise<string> {
  await db.insertInto('application_log_numbers').values({ application_id: applicationId }).onConflict((oc) => oc.doNothing()).execute();
  const { number } = await db
    .selectFrom('application_log_numbers')
    .select('number')
    .where('application_id', '=', applicationId)
    .executeTakeFirstOrThrow();
  return `LU-${String(number).padStart(6, '0')}`;
}
