import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { applicationPageQuery, type ApplicationScope } from '../../api/services/application-list';
import { documentPageQuery, listDocumentPage } from '../../api/services/document-list';
import { managerTaskPageQuery } from '../../api/services/manager-task-list';
import type { ApplicationListQuery, ManagerTaskQuery } from '../../domain';
import type { Db } from '../../infra/db/database';
import { seedDemoData } from '../../infra/seed';
import { addApplications, addDocuments, addManagerTasks } from '../helpers/bulk-rows';
import { nodesOf, type PlanNode } from '../helpers/query-plans';
import { createTestDatabase } from '../helpers/stack';

/**
 * Each manager list's first page (and a later one) is read from an index in the list's
 * order, checked on tables large enough for the planner to prefer a Seq Scan and Sort if it could.
 */
const BIG = ['applications', 'manager_tasks', 'users', 'households', 'household_documents'];

async function planOf(query: { explain(format: 'json'): Promise<Record<string, unknown>[]> }): Promise<PlanNode[]> {
  const [row] = await query.explain('json');
  const [plan] = row!['QUERY PLAN'] as { Plan: PlanNode }[];
  return nodesOf(plan!.Plan);
}

/** What the plan says about the list's own table: read by an index, never scanned whole, never sorted. */
function expectIndexed(nodes: PlanNode[], table: string, index: string) {
  const summary = nodes.map((n) => [n['Node Type'], n['Relation Name'] ?? '', n['Index Name'] ?? ''].filter(Boolean).join(' '));
  expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan' && BIG.includes(n['Relation Name'] ?? '')), summary.join(' / ')).toEqual([]);
  expect(nodes.filter((n) => n['Node Type'].endsWith('Sort')), summary.join(' / ')).toEqual([]);
  expect(nodes.some((n) => n['Relation Name'] === table && n['Index Name'] === index), summary.join(' / ')).toBe(true);
}

describe('manager list plans at 24,000 rows a list', () => {
  let db: Db;
  let organizationId: string;
  let opportunityIds: string[];
  let householdId: string;
  // A cursor from each list's own first page, so the "after the cursor" plan is checked too.
  const cursors = { applications: '', tasks: '', documents: '' };

  beforeAll(async () => {
    ({ db } = await createTestDatabase());
    await seedDemoData(db);
    const manager = await db.selectFrom('users').select('organization_id').where('username', '=', 'manager').executeTakeFirstOrThrow();
    organizationId = manager.organization_id!;
    opportunityIds = (await db.selectFrom('opportunities').select('id').where('organization_id', '=', organizationId).execute()).map((o) => o.id);
    householdId = (await db.selectFrom('households').select('id').executeTakeFirstOrThrow()).id;
    // Another organisation's rows too, so the organisation filter is a real choice for the planner.
    const other = await db.insertInto('organizations').values({ name: 'Other Housing', slug: 'other-housing-plans' }).returning('id').executeTakeFirstOrThrow();
    const otherOpportunity = await sql<{ id: string }>`
      insert into opportunities (organization_id, name, kind, address, lottery_end_date)
      values (${other.id}, 'Elsewhere', 'rental', '1 Other St', '2027-01-01') returning id`.execute(db);
    const from = new Date('2026-01-01T00:00:00Z');
    await addApplications(db, { organizationId, opportunityIds, count: 24_000, from, stepMs: 60_000, perTimestamp: 3 });
    await addApplications(db, { organizationId: other.id, opportunityIds: [otherOpportunity.rows[0]!.id], count: 8_000, from, stepMs: 60_000 });
    await addManagerTasks(db, { organizationId, householdId, contextIds: opportunityIds, count: 24_000, from, stepMs: 1_000 });
    await addManagerTasks(db, { organizationId: other.id, householdId, contextIds: [otherOpportunity.rows[0]!.id], count: 8_000, from, stepMs: 1_000 });
    // One household with many documents, and others' documents beside them.
    const head = (await db.selectFrom('households').select('head_user_id').where('id', '=', householdId).executeTakeFirstOrThrow()).head_user_id;
    await addDocuments(db, { householdId, uploadedBy: head, count: 20_000, from, stepMs: 1_000, perTimestamp: 2 });
    const others = await db.selectFrom('households').select(['id', 'head_user_id']).where('id', '!=', householdId).limit(40).execute();
    for (const h of others) await addDocuments(db, { householdId: h.id, uploadedBy: h.head_user_id, count: 100, from, stepMs: 1_000 });
    await sql`analyze`.execute(db);

    const { listApplications } = await import('../../api/services/application-list');
    const { listManagerTasks } = await import('../../api/services/manager-task-list');
    const managerSession = { userId: (await db.selectFrom('users').select('id').where('username', '=', 'manager').executeTakeFirstOrThrow()).id, role: 'Manager' } as never;
    cursors.applications = (await listApplications(db, managerSession, { limit: 25 })).nextCursor!;
    cursors.tasks = (await listManagerTasks(db, organizationId, { limit: 25 })).nextCursor!;
    cursors.documents = (await listDocumentPage(db, householdId, { limit: 25 })).nextCursor!;
    expect(cursors.applications && cursors.tasks && cursors.documents).toBeTruthy();
  }, 180_000);
  afterAll(() => db?.destroy());

  const appCases: [string, () => ApplicationScope, Omit<ApplicationListQuery, 'limit'>, string][] = [
    ['the organisation’s applications', () => ({ organizationId }), {}, 'applications_org_applied'],
    ['one opportunity’s applications', () => ({ organizationId }), { opportunityId: 'first' }, 'applications_org_opportunity_applied'],
    ['a household’s applications', () => ({ householdId }), {}, 'applications_household_applied'],
  ];
  for (const [name, scope, filter, index] of appCases) {
    for (const page of ['first', 'next'] as const) {
      it(`${name}, ${page} page: ${index}`, async () => {
        const query: ApplicationListQuery = { ...filter, limit: 25, ...(filter.opportunityId ? { opportunityId: opportunityIds[0] } : {}) };
        if (page === 'next') query.cursor = cursors.applications;
        expectIndexed(await planOf(applicationPageQuery(db, scope(), query)), 'applications', index);
      });
    }
  }

  const taskCases: [string, Omit<ManagerTaskQuery, 'limit'>, string][] = [
    ['the whole inbox', {}, 'manager_tasks_org_inbox'],
    ['the inbox by case kind', { caseKind: 'recertification' }, 'manager_tasks_kind_inbox'],
    ['the inbox by opportunity', { contextId: 'first' }, 'manager_tasks_context_inbox'],
    ['the inbox by step', { step: 'unit_offer' }, 'manager_tasks_step_inbox'],
    ['the inbox due before a date', { dueBefore: '2026-02-15' }, 'manager_tasks_org_inbox'],
  ];
  for (const [name, filter, index] of taskCases) {
    for (const page of ['first', 'next'] as const) {
      it(`${name}, ${page} page: ${index}`, async () => {
        const query: ManagerTaskQuery = { ...filter, limit: 25, ...(filter.contextId ? { contextId: opportunityIds[0] } : {}) };
        if (page === 'next') query.cursor = cursors.tasks;
        expectIndexed(await planOf(managerTaskPageQuery(db, organizationId, query)), 'manager_tasks', index);
      });
    }
  }

  for (const page of ['first', 'next'] as const) {
    it(`a household’s documents (the manager's documents list), ${page} page: household_documents_household_uploaded`, async () => {
      const query = { limit: 25, ...(page === 'next' ? { cursor: cursors.documents } : {}) };
      expectIndexed(await planOf(documentPageQuery(db, householdId, query)), 'household_documents', 'household_documents_household_uploaded');
    });
  }
});
