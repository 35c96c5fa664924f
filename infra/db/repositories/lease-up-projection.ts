import { sql, type RawBuilder } from 'kysely';
import type { LeaseUpView } from '../../../domain';
import { prepared, type Db } from '../database';
import { leaseUpWorkflowId } from '../../temporal/ids';
import { projectCase } from './case-projection';
import { caseTasksWrites } from './case-tasks';
import { declaredIncomeColumns } from './declared-income';
import { appendInvitationLog, passedOverKey } from './invitation-log';

/** The `applications` row of a view, as every projection of it writes it. */
function applicationRow(view: LeaseUpView) {
  return {
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
  };
}

/**
 * What an invited household's case decided that the lottery's invitation log records: no answer to
 * its offer before it expired, or its income certification denied by the manager (over the income
 * range). Only for a household a lottery ranked, once each.
 */
async function logLotteryPassOver(trx: Db, view: LeaseUpView): Promise<void> {
  const reason =
    view.offers.some((o) => o.status === 'expired') ? ('no_answer' as const) : view.status === 'rejected' && view.rejectedAtStep === 'income_certification' ? ('over_income' as const) : null;
  if (!reason) return;
  const ranked = await trx.selectFrom('applications').select(['log_number', 'lottery_rank']).where('id', '=', view.applicationId).where('lottery_rank', 'is not', null).executeTakeFirst();
  if (!ranked) return;
  await appendInvitationLog(trx, view.opportunityId, [
    { applicationId: view.applicationId, logNumber: ranked.log_number ?? view.applicationId, rank: ranked.lottery_rank!, event: 'passed_over', reason, dedupeKey: passedOverKey(view.applicationId, reason) },
  ]);
}

/** The manager's open tasks of a view, as the inbox keeps them. */
const managerTasks = (view: LeaseUpView) =>
  view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: t.overdue ?? false }));

/**
 * Writes the application's view into the `applications` read model and its open manager tasks into
 * the shared inbox (case-projection.ts: idempotent, version-guarded).
 */
export async function projectApplication(db: Db, view: LeaseUpView): Promise<{ written: boolean }> {
  const result = await projectCase(
    db,
    'applications',
    applicationRow(view),
    ['log_number', 'status', 'current_step', 'held_unit_id', 'household_size', 'household_income', 'household_income_encrypted'],
    {
      caseKind: 'lease_up',
      step: view.currentStep,
      contextId: view.opportunityId,
      contextName: sql<string | null>`(select name from opportunities where id = ${view.opportunityId})`,
      tasks: managerTasks(view),
    },
    (trx) => logLotteryPassOver(trx, view),
  );
  // A withdrawn or closed application gives its appointment time back to the others.
  if (view.status === 'withdrawn' || view.status === 'closed') {
    await db.deleteFrom('appointment_bookings').where('application_id', '=', view.applicationId).execute();
  }
  return result;
}

/** Each column's type, for the values of `insertFirstApplication` (an INSERT ... SELECT does not take them from the table). */
const COLUMN_TYPES = {
  id: 'uuid',
  workflow_id: 'text',
  household_id: 'uuid',
  opportunity_id: 'uuid',
  organization_id: 'uuid',
  applicant_user_id: 'uuid',
  log_number: 'text',
  status: 'text',
  current_step: 'text',
  pending_tasks: 'jsonb',
  household_size: 'integer',
  household_income: 'numeric',
  household_income_encrypted: 'text',
  applied_at: 'timestamptz',
  state_updated_at: 'timestamptz',
  state_version: 'integer',
  held_unit_id: 'uuid',
  view: 'jsonb',
} as const satisfies Record<keyof ReturnType<typeof applicationRow>, string>;

/**
 * A new application with its first view: its row, its log number and its inbox tasks, in one
 * statement (one round trip, one commit, each index written once), written only when `admit`
 * returns a row (the starter's checks, read in the same statement; its `name` column names the
 * task's context) and no application of this household to this opportunity exists (every unique
 * key of the table answers a race: the loser writes nothing). No case lock is taken: the case's run
 * starts after this commits, so no projection of it can run meanwhile, and the tasks are written only
 * by the statement that wrote the row.
 */
export async function insertFirstApplication(
  db: Db,
  view: LeaseUpView,
  logSequence: string,
  admit: RawBuilder<unknown>,
): Promise<{ admitted: boolean; inserted: boolean }> {
  const row = applicationRow(view);
  const columns = Object.keys(COLUMN_TYPES) as (keyof typeof COLUMN_TYPES)[];
  const values = columns.map((c) => sql`${row[c]}::${sql.raw(COLUMN_TYPES[c])}`);
  const tasks = caseTasksWrites(
    { caseKind: 'lease_up', caseId: view.applicationId, organizationId: view.organizationId, householdId: view.householdId, version: view.version, step: view.currentStep, contextId: view.opportunityId, contextName: sql`(select name from admitted)`, tasks: managerTasks(view) },
    sql`select 1 from inserted`,
  );
  const { rows } = await prepared(sql<{ admitted: boolean; inserted: boolean }>`
    with admitted as (${admit}), inserted as (
      insert into applications (${sql.join(columns.map((c) => sql.ref(c)))})
      select ${sql.join(values)} from admitted
      on conflict do nothing
      returning id
    ), numbered as (
      insert into application_log_numbers (application_id, number) select id, ${logSequence}::bigint from inserted
      on conflict (application_id) do nothing
    ), ${tasks}
    select exists (select 1 from admitted) as admitted, exists (select 1 from inserted) as inserted`).execute(db);
  return rows[0]!;
}
