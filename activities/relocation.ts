import { sql } from 'kysely';
import type { RelocationView } from '../domain';
import type { Db } from '../infra/db/database';
import { relocationWorkflowId } from '../workflows/ids';
import { projectCaseTasks } from './manager-tasks';
import { enqueueNotification } from './notifications';

/** Writes a relocation's view into its read model and the manager inbox (idempotent, version-guarded). */
export async function projectRelocation(db: Db, view: RelocationView): Promise<{ written: boolean }> {
  const result = await db
    .insertInto('relocation_cases')
    .values({
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
    })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          under_relocation: eb.ref('excluded.under_relocation'),
          ends_at: eb.ref('excluded.ends_at'),
          pending_tasks: eb.ref('excluded.pending_tasks'),
          state_updated_at: eb.ref('excluded.state_updated_at'),
          state_version: eb.ref('excluded.state_version'),
          view: eb.ref('excluded.view'),
          projected_at: sql<Date>`now()`,
        }))
        .where('relocation_cases.state_version', '<', (eb) => eb.ref('excluded.state_version')),
    )
    .executeTakeFirst();
  const tenancy = await db.selectFrom('tenancies').select(['building_name', 'unit_number']).where('household_id', '=', view.householdId).executeTakeFirst();
  await projectCaseTasks(db, {
    caseKind: 'relocation',
    caseId: view.relocationId,
    organizationId: view.organizationId,
    householdId: view.householdId,
    step: view.status,
    contextId: null,
    contextName: tenancy ? `${tenancy.building_name} ${tenancy.unit_number}` : null,
    version: view.version,
    tasks: view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: t.overdue })),
  });
  return { written: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

/** Queues a reminder or the overdue notice once per end date (an extension gets its own reminders). */
export async function sendRelocationNotice(
  db: Db,
  n: { relocationId: string; tenantUserId: string; template: 'relocation-reminder' | 'relocation-overdue'; daysBefore: number; endsAt: string },
): Promise<{ queued: boolean }> {
  const user = await db.selectFrom('users').select(['email', 'preferred_language']).where('id', '=', n.tenantUserId).executeTakeFirstOrThrow();
  const queued = await enqueueNotification(db, {
    userId: n.tenantUserId,
    channel: 'email',
    toAddress: user.email,
    template: n.template,
    language: user.preferred_language,
    params: { daysBefore: n.daysBefore, endsAt: n.endsAt },
    dedupeKey: `relocation:${n.relocationId}:${n.template}:${n.endsAt.slice(0, 10)}:${n.daysBefore}`,
  });
  return { queued };
}
