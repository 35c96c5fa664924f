import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';

/**
 * Many read-model rows in one SQL statement each (generate_series), for list tests at the size where
 * the planner's choices matter. Applications get a household and a head user each (one application
 * per household per opportunity); `perTimestamp` rows share each `applied_at`, so ties are paged too.
 */
export async function addApplications(
  db: Db,
  o: { organizationId: string; opportunityIds: readonly string[]; count: number; from: Date; stepMs: number; perTimestamp?: number },
): Promise<string[]> {
  const result = await sql<{ id: string }>`
    with g as (select n, gen_random_uuid() as user_id from generate_series(0, ${o.count - 1}) as n),
    u as (
      insert into users (id, username, email, first_name, last_name, role, password_hash)
      select user_id, 'bulk-' || user_id, 'bulk-' || user_id || '@example.org', 'Bulk', 'Applicant ' || n, 'User', 'none' from g
      returning id
    ),
    h as (insert into households (head_user_id, profile_completion) select id, 100 from u returning id, head_user_id),
    numbered as (select h.*, g.n from h join g on g.user_id = h.head_user_id)
    insert into applications (id, workflow_id, household_id, opportunity_id, organization_id, applicant_user_id, log_number, status, current_step,
                              household_size, household_income, applied_at, state_updated_at, state_version)
    select gen_random_uuid(), 'bulk-' || numbered.id, numbered.id,
           (${sql.val(o.opportunityIds)}::uuid[])[1 + numbered.n % ${o.opportunityIds.length}],
           ${o.organizationId}, numbered.head_user_id, 'BULK-' || numbered.n, 'in_review', 'documentation_review', 2, 40000,
           ${o.from}::timestamptz + (numbered.n / ${o.perTimestamp ?? 1}) * ${o.stepMs} * interval '1 millisecond', now(), 1
      from numbered
    returning id`.execute(db);
  return result.rows.map((r) => r.id);
}

const KINDS = ['lease_up', 'recertification', 'relocation'];
const STEPS = ['documentation_review', 'appointment', 'unit_offer', 'income_certification', 'lease_signing'];

/**
 * Open inbox tasks of one household's head (the inbox joins households and users): kinds, steps and
 * opportunities (context ids) in turn, every 7th without a due date, every 11th overdue.
 */
export async function addManagerTasks(
  db: Db,
  o: { organizationId: string; householdId: string; contextIds: readonly string[]; count: number; from: Date; stepMs: number },
): Promise<string[]> {
  const result = await sql<{ id: string }>`
    insert into manager_tasks (organization_id, case_kind, case_id, household_id, action, step, context_id, context_name, due_at, overdue, case_version, created_at)
    select ${o.organizationId}, (${sql.val(KINDS)}::text[])[1 + n % 3], gen_random_uuid(), ${o.householdId}, 'Review',
           (${sql.val(STEPS)}::text[])[1 + n % 5],
           (${sql.val(o.contextIds)}::uuid[])[1 + n % ${o.contextIds.length}], 'Bulk opportunity',
           case when n % 7 = 0 then null else ${o.from}::timestamptz + (n % 97) * interval '1 day' end,
           n % 11 = 0, 1,
           ${o.from}::timestamptz + (n / 2) * ${o.stepMs} * interval '1 millisecond'
      from generate_series(0, ${o.count - 1}) as n
    returning id`.execute(db);
  return result.rows.map((r) => r.id);
}

/** A household's documents (no file behind them), `perTimestamp` uploaded at each instant. */
export async function addDocuments(db: Db, o: { householdId: string; uploadedBy: string; count: number; from: Date; stepMs: number; perTimestamp?: number }): Promise<string[]> {
  const result = await sql<{ id: string }>`
    insert into household_documents (household_id, document_type, file_name, content_type, size_bytes, uploaded_by, uploaded_at)
    select ${o.householdId}, 'other', 'bulk-' || n || '.pdf', 'application/pdf', 10, ${o.uploadedBy},
           ${o.from}::timestamptz + (n / ${o.perTimestamp ?? 1}) * ${o.stepMs} * interval '1 millisecond'
      from generate_series(0, ${o.count - 1}) as n
    returning id`.execute(db);
  return result.rows.map((r) => r.id);
}
