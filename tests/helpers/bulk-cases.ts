import { sql } from 'kysely';
import type { Client } from '@temporalio/client';
import { DEFAULT_LEASE_UP_SETTINGS, type StartLeaseUpInput } from '../../domain';
import type { Db } from '../../infra/db/database';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { eventually } from './stack';

export interface SeededCase {
  applicationId: string;
  userId: string;
}

/**
 * Many real lease-up cases, as cheaply as the product allows: a new opportunity of the
 * organisation (a copy of one of its own), the households and their heads in one SQL statement,
 * then every workflow started at once (each writes its own read-model row in its first task).
 */
export async function seedLeaseUpCases(db: Db, temporal: Client, o: { organizationId: string; taskQueue: string; count: number }): Promise<{ opportunityId: string; cases: SeededCase[] }> {
  const opportunity = await sql<{ id: string }>`
    insert into opportunities
    select (jsonb_populate_record(null::opportunities, to_jsonb(o) || jsonb_build_object('id', gen_random_uuid(), 'name', 'Bulk ' || left(gen_random_uuid()::text, 8)))).*
      from opportunities o where o.organization_id = ${o.organizationId} limit 1
    returning id`.execute(db);
  const opportunityId = opportunity.rows[0]!.id;
  const heads = await sql<{ user_id: string; household_id: string }>`
    with u as (
      insert into users (username, email, first_name, last_name, role, password_hash)
      select 'bulk-' || r, 'bulk-' || r || '@example.org', 'Bulk', 'Applicant ' || n, 'User', 'none'
        from (select n, left(gen_random_uuid()::text, 13) as r from generate_series(1, ${o.count}) as n) g
      returning id
    )
    insert into households (head_user_id, profile_completion) select id, 100 from u returning head_user_id as user_id, id as household_id`.execute(db);
  const cases = heads.rows.map((h) => ({ applicationId: leaseUpApplicationId(opportunityId, h.household_id), userId: h.user_id, householdId: h.household_id }));
  const start = (c: (typeof cases)[number]) => {
    const input: StartLeaseUpInput = {
      applicationId: c.applicationId,
      householdId: c.householdId,
      opportunityId,
      organizationId: o.organizationId,
      applicantUserId: c.userId,
      householdSize: 2,
      householdIncome: 48_000,
      settings: DEFAULT_LEASE_UP_SETTINGS,
    };
    return temporal.workflow.start('leaseUpApplication', { workflowId: leaseUpWorkflowId(c.applicationId), taskQueue: o.taskQueue, args: [input] });
  };
  for (let i = 0; i < cases.length; i += 100) await Promise.all(cases.slice(i, i + 100).map(start));
  await eventually(async () => {
    const row = await db.selectFrom('applications').select(sql<string>`count(*)`.as('n')).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
    return Number(row.n) === o.count;
  }, 200_000);
  return { opportunityId, cases: cases.map(({ applicationId, userId }) => ({ applicationId, userId })) };
}

/** How many times each case's projected history holds `action` (the read model of every case at once). */
export async function actionCounts(db: Db, opportunityId: string, action: string): Promise<Map<string, number>> {
  const rows = await sql<{ id: string; n: string }>`
    select a.id, (select count(*) from jsonb_array_elements(a.view -> 'history') e where e ->> 'action' = ${action}) as n
      from applications a where a.opportunity_id = ${opportunityId}`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, Number(r.n)]));
}
