import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Every growing list reads its first page from an index in its own order, and every
 * foreign key has an index leading with its columns (a delete of the referenced row otherwise reads
 * the whole referencing table). Frozen in time: no imports from app code.
 */

/** The manager inbox's order as ascending expressions: overdue first, soonest due (none last), oldest, id. */
const INBOX_ORDER = sql`(not overdue), (coalesce(due_at, 'infinity'::timestamptz)), created_at, id`;

const LIST_INDEXES: [name: string, ddl: RawBuilder<unknown>][] = [
  // getApplications: an organisation's, one opportunity's of it, a household's; newest first.
  ['applications_org_applied', sql`applications (organization_id, applied_at, id)`],
  ['applications_org_opportunity_applied', sql`applications (organization_id, opportunity_id, applied_at, id)`],
  ['applications_household_applied', sql`applications (household_id, applied_at, id)`],
  // ManagerTasks: the whole inbox, and by case kind, by opportunity (context) and by step.
  ['manager_tasks_org_inbox', sql`manager_tasks (organization_id, ${INBOX_ORDER})`],
  ['manager_tasks_kind_inbox', sql`manager_tasks (organization_id, case_kind, ${INBOX_ORDER})`],
  ['manager_tasks_context_inbox', sql`manager_tasks (organization_id, context_id, ${INBOX_ORDER})`],
  ['manager_tasks_step_inbox', sql`manager_tasks (organization_id, step, ${INBOX_ORDER})`],
  // A household's documents, newest first.
  ['household_documents_household_uploaded', sql`household_documents (household_id, uploaded_at, id)`],
];

/** Replaced by the list indexes above, which lead with the same column. */
const REPLACED: [name: string, ddl: RawBuilder<unknown>][] = [
  ['applications_household', sql`applications (household_id)`],
  ['manager_tasks_org_due', sql`manager_tasks (organization_id, due_at)`],
  ['household_documents_household', sql`household_documents (household_id)`],
];

/** Foreign keys that had no index leading with their column. */
const FOREIGN_KEYS: [table: string, column: string][] = [
  ['access_grants', 'ended_by'],
  ['access_grants', 'requested_by'],
  ['applications', 'applicant_user_id'],
  ['favorite_opportunities', 'opportunity_id'],
  ['household_assets', 'member_id'],
  ['household_documents', 'asset_id'],
  ['household_documents', 'income_id'],
  ['household_documents', 'member_id'],
  ['household_documents', 'uploaded_by'],
  ['household_incomes', 'member_id'],
  ['households', 'organization_id'],
  ['lottery_releases', 'opportunity_id'],
  ['notification_outbox', 'user_id'],
  ['opportunities', 'created_by'],
  ['opportunities', 'organization_id'],
  ['opportunity_lotteries', 'organization_id'],
  ['organization_requests', 'decided_by'],
  ['organization_requests', 'organization_id'],
  ['recertification_cases', 'organization_id'],
  ['recertification_cases', 'tenant_user_id'],
  ['refresh_tokens', 'real_user_id'],
  ['refresh_tokens', 'user_id'],
  ['relocation_cases', 'organization_id'],
  ['relocation_cases', 'tenant_user_id'],
  ['rental_assistance', 'household_id'],
  ['tenancies', 'organization_id'],
  ['tenant_roster', 'linked_user_id'],
  ['tenant_roster', 'organization_id'],
];

const fkIndexName = (table: string, column: string) => `${table}_${column}_fk`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, on] of LIST_INDEXES) await sql`create index ${sql.id(name)} on ${on}`.execute(db);
  for (const [name] of REPLACED) await sql`drop index ${sql.id(name)}`.execute(db);
  for (const [table, column] of FOREIGN_KEYS) await db.schema.createIndex(fkIndexName(table, column)).on(table).column(column).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of FOREIGN_KEYS) await db.schema.dropIndex(fkIndexName(table, column)).execute();
  for (const [name, on] of REPLACED) await sql`create index ${sql.id(name)} on ${on}`.execute(db);
  for (const [name] of LIST_INDEXES) await sql`drop index ${sql.id(name)}`.execute(db);
}
