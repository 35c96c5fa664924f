/**
 * What the bench needs, written in bulk (a few statements per 10,000 rows, not one API call per
 * application): one lottery opportunity in the demo organisation with N applications 'in lottery',
 * an open manager task for each (the inbox at N rows), and households ready to apply to a
 * first-come opportunity. IDs follow the product's rules (application ID from opportunity and household).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { formatLogNumber, lotteryWorkflowId } from '../../domain';
import { dataCipher } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { newSeed, seedHash } from '../../infra/lottery/draw';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import demo from '../../infra/demo-accounts.json' with { type: 'json' };
import { DAY } from '../../domain/time';

const CHUNK = 10_000;

export interface BenchSeed {
  organizationId: string;
  lotteryId: string;
  firstComeId: string;
  applicant: { userId: string; householdId: string };
  /** Applications in the lottery so far. */
  applications: number;
}

const demoUser = (role: string) => demo.accounts.find((a) => a.role === role)!.username;

/** The lottery (deadline passed, ready to draw) and a first-come opportunity, in the demo organisation. */
export async function seedOpportunities(db: Db, now: Date): Promise<BenchSeed> {
  const manager = await db.selectFrom('users').select('organization_id').where('username', '=', demoUser('Manager')).executeTakeFirstOrThrow();
  const organizationId = manager.organization_id!;
  const applicantUser = await db.selectFrom('users').select('id').where('username', '=', demoUser('User')).executeTakeFirstOrThrow();
  const applicantHousehold = await db.selectFrom('households').select('id').where('head_user_id', '=', applicantUser.id).executeTakeFirstOrThrow();
  const opportunity = (name: string, selection: 'lottery' | 'first_come', deadline: string) =>
    db
      .insertInto('opportunities')
      .values({
        organization_id: organizationId,
        name,
        kind: 'rental',
        address: '1 Bench Plaza, New York, NY 10001',
        amenities: '[]',
        requirements: JSON.stringify([{ amiPercent: 60, layout: '2 bedrooms', monthlyRent: 1500 }]),
        income_ranges: '[]',
        lottery_end_date: deadline,
        published: true,
        published_at: new Date(now.getTime() - 30 * DAY),
        selection,
        ...(selection === 'lottery' ? { lottery_set_asides: JSON.stringify([{ group: 'disability', share: 0.05 }, { group: 'senior', share: 0.02 }]) } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const yesterday = new Date(now.getTime() - DAY).toISOString().slice(0, 10);
  const lottery = await opportunity('Bench Lottery', 'lottery', yesterday);
  const firstCome = await opportunity('Bench First Come', 'first_come', new Date(now.getTime() + 60 * DAY).toISOString().slice(0, 10));
  for (const id of [lottery.id, firstCome.id]) {
    await db
      .insertInto('units')
      .values(Array.from({ length: 20 }, (_, i) => ({ opportunity_id: id, unit_number: `B${i + 1}`, bedroom_type: '2 bedrooms', address: '1 Bench Plaza', accessibility: '[]', monthly_rent: 1500, ami_percent: 60 })))
      .execute();
  }
  const seed = newSeed();
  await db
    .insertInto('opportunity_lotteries')
    .values({
      opportunity_id: lottery.id,
      workflow_id: lotteryWorkflowId(lottery.id),
      organization_id: organizationId,
      stage: 'accepting',
      deadline: yesterday,
      units: 20,
      // No mail grace period: the list freezes as applications close, so the bench can draw at once.
      mail_grace_days: 0,
      set_asides: JSON.stringify([{ group: 'disability', share: 0.05 }, { group: 'senior', share: 0.02 }]),
      seed_encrypted: dataCipher().encrypt(seed),
      seed_hash: seedHash(seed),
      state_version: 0,
      state_updated_at: now,
    })
    .execute();
  return { organizationId, lotteryId: lottery.id, firstComeId: firstCome.id, applicant: { userId: applicantUser.id, householdId: applicantHousehold.id }, applications: 0 };
}

/** `count` applicant users with complete households (sizes 1 to 4); their ids, in order. */
export async function insertHouseholds(db: Db, tag: string, from: number, count: number): Promise<{ userId: string; householdId: string; size: number }[]> {
  const out: { userId: string; householdId: string; size: number }[] = [];
  for (let start = 0; start < count; start += CHUNK) {
    const n = Math.min(CHUNK, count - start);
    const userIds = Array.from({ length: n }, () => randomUUID());
    const householdIds = Array.from({ length: n }, () => randomUUID());
    const nums = Array.from({ length: n }, (_, i) => from + start + i);
    await sql`
      insert into users (id, username, email, first_name, last_name, role, password_hash, email_verified)
      select u, ${tag} || '-' || i, ${tag} || '-' || i || '@example.test', 'Bench', 'Household ' || i, 'User', '!', true
      from unnest(${userIds}::uuid[], ${nums}::int[]) as t(u, i)`.execute(db);
    await sql`
      insert into households (id, head_user_id, household_size, profile_completion)
      select h, u, 1 + i % 4, 100 from unnest(${householdIds}::uuid[], ${userIds}::uuid[], ${nums}::int[]) as t(h, u, i)`.execute(db);
    nums.forEach((i, k) => out.push({ userId: userIds[k]!, householdId: householdIds[k]!, size: 1 + (i % 4) }));
  }
  return out;
}

/**
 * Grows the lottery to `target` applications 'in lottery' (log numbers, preference groups, applied
 * over the last 20 days), each with an open documentation-review task in the manager's inbox, then
 * refreshes the planner's statistics (as autovacuum would after a bulk load).
 */
export async function growLottery(db: Db, seed: BenchSeed, target: number, now: Date): Promise<void> {
  // The demo applicant applies too, so their own list holds a lottery application.
  if (seed.applications === 0) {
    await addApplications(db, seed, [{ userId: seed.applicant.userId, householdId: seed.applicant.householdId, size: 2 }], 0, now);
    seed.applications = 1;
  }
  while (seed.applications < target) {
    const n = Math.min(CHUNK, target - seed.applications);
    const households = await insertHouseholds(db, 'bench-lottery', seed.applications, n);
    await addApplications(db, seed, households, seed.applications, now);
    seed.applications += n;
  }
  await sql`analyze`.execute(db);
}

async function addApplications(db: Db, seed: BenchSeed, households: { userId: string; householdId: string; size: number }[], from: number, now: Date) {
  const ids = households.map((h) => leaseUpApplicationId(seed.lotteryId, h.householdId));
  const logs = await sql<{ application_id: string; number: string }>`
    insert into application_log_numbers (application_id) select unnest(${ids}::uuid[]) returning application_id, number`.execute(db);
  const logOf = new Map(logs.rows.map((r) => [r.application_id, formatLogNumber(r.number)]));
  const nums = households.map((_, k) => from + k);
  const groups = nums.map((i) => JSON.stringify([...(i % 20 === 0 ? ['disability'] : []), ...(i % 50 === 0 ? ['senior'] : [])]));
  const appliedAt = nums.map((i) => new Date(now.getTime() - DAY - (i % (20 * 24 * 60)) * 60_000).toISOString());
  await sql`
    insert into applications (id, workflow_id, household_id, opportunity_id, organization_id, applicant_user_id, log_number, status, current_step,
      pending_tasks, household_size, household_income, lottery_groups, applied_at, state_updated_at, state_version)
    select a, w, h, ${seed.lotteryId}::uuid, ${seed.organizationId}::uuid, u, l, 'in_lottery', 'submitted',
      '[]', s, 30000 + (i % 40) * 750, g::jsonb, t, t, 0
    from unnest(${ids}::uuid[], ${ids.map(leaseUpWorkflowId)}::text[], ${households.map((h) => h.householdId)}::uuid[], ${households.map((h) => h.userId)}::uuid[],
      ${ids.map((id) => logOf.get(id)!)}::text[], ${households.map((h) => h.size)}::int[], ${nums}::int[], ${groups}::text[], ${appliedAt}::timestamptz[])
      as r(a, w, h, u, l, s, i, g, t)`.execute(db);
  // The inbox at the same size: one open task per application, due over the next 30 days.
  await sql`
    insert into manager_tasks (organization_id, case_kind, case_id, household_id, action, step, context_id, context_name, due_at, overdue, case_version)
    select ${seed.organizationId}::uuid, 'lease_up', a, h, 'MarkAsComplete', 'documentation_review', ${seed.lotteryId}::uuid, 'Bench Lottery',
      ${now.toISOString()}::timestamptz + (i % 30) * interval '1 day' + (i % 1440) * interval '1 minute', false, 1
    from unnest(${ids}::uuid[], ${households.map((h) => h.householdId)}::uuid[], ${nums}::int[]) as r(a, h, i)`.execute(db);
}
