import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import { findPlace, listRanks } from '../../api/services/lottery-results';
import { createPool, type Database, type Db } from '../../infra/db/database';
import { seedDemoData } from '../../infra/seed';
import { addApplications } from '../helpers/bulk-rows';
import { nodesOf, type PlanNode } from '../helpers/query-plans';
import { createTestDatabase } from '../helpers/stack';

/**
 * The lottery's ranked list and a log number's place are read from their indexes, which hold only
 * ranked applications (first-come and undrawn ones write no entry there): checked beside as many
 * unranked applications of another opportunity, on tables large enough for the planner to prefer a
 * Seq Scan and Sort if it could.
 */
describe('lottery rank plans at 24,000 applications', () => {
  let db: Db;
  let url: string;
  let lotteryId: string;
  /** The statements the services sent, as sent (text and values), through a database that records them. */
  const sent: CompiledQuery[] = [];
  let recording: Kysely<Database>;

  beforeAll(async () => {
    ({ db, url } = await createTestDatabase());
    await seedDemoData(db);
    const organizationId = (await db.selectFrom('users').select('organization_id').where('username', '=', 'manager').executeTakeFirstOrThrow()).organization_id!;
    const opportunity = async (name: string) =>
      (await sql<{ id: string }>`
        insert into opportunities (organization_id, name, kind, address, lottery_end_date)
        values (${organizationId}, ${name}, 'rental', '1 Plan St', '2027-01-01') returning id`.execute(db)).rows[0]!.id;
    lotteryId = await opportunity('Ranked');
    const firstCome = await opportunity('First come');
    const from = new Date('2026-01-01T00:00:00Z');
    await addApplications(db, { organizationId, opportunityIds: [lotteryId], count: 12_000, from, stepMs: 60_000 });
    await addApplications(db, { organizationId, opportunityIds: [firstCome], count: 12_000, from, stepMs: 60_000 });
    await sql`
      update applications a set status = 'waitlisted', lottery_rank = r.rank
      from (select id, row_number() over (order by id) as rank from applications where opportunity_id = ${lotteryId}) r
      where a.id = r.id`.execute(db);
    await sql`analyze`.execute(db);
    recording = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: createPool({ DATABASE_URL: url, PG_POOL_MAX: 1, PG_STATEMENT_TIMEOUT_MS: 15_000, PG_SSL: false }) }),
      log: (event) => void sent.push(event.query),
    });
  }, 180_000);
  afterAll(async () => {
    await recording?.destroy();
    await db?.destroy();
  });

  /** The plan of the one statement `run` sends, with the values it sent. */
  async function planOf(run: (db: Db) => Promise<unknown>): Promise<string[]> {
    sent.length = 0;
    await run(recording);
    expect(sent).toHaveLength(1);
    const [query] = sent;
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(CompiledQuery.raw(`explain (format json) ${query!.sql}`, [...query!.parameters]));
    return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan).map((n) => [n['Node Type'], n['Relation Name'] ?? '', n['Index Name'] ?? ''].filter(Boolean).join(' '));
  }

  it('the ranked list after a rank: applications_lottery_rank, no scan, no sort', async () => {
    const plan = await planOf((d) => listRanks(d, lotteryId, 6_000, 25));
    expect(plan.some((n) => n.endsWith('applications applications_lottery_rank')), plan.join(' / ')).toBe(true);
    expect(plan.filter((n) => n.startsWith('Seq Scan') || n.endsWith('Sort')), plan.join(' / ')).toEqual([]);
  });

  it('a log number’s place: applications_opportunity_log', async () => {
    const plan = await planOf((d) => findPlace(d, lotteryId, 'BULK-42'));
    expect(plan.some((n) => n.endsWith('applications applications_opportunity_log')), plan.join(' / ')).toBe(true);
    expect(plan.filter((n) => n.startsWith('Seq Scan')), plan.join(' / ')).toEqual([]);
  });

  it('the indexes leave unranked applications out', async () => {
    const { rows } = await sql<{ name: string; predicate: string | null }>`
      select c.relname as name, pg_get_expr(i.indpred, i.indrelid) as predicate from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relname in ('applications_lottery_rank', 'applications_opportunity_log') order by 1`.execute(db);
    expect(rows).toEqual([
      { name: 'applications_lottery_rank', predicate: '(lottery_rank IS NOT NULL)' },
      { name: 'applications_opportunity_log', predicate: '(lottery_rank IS NOT NULL)' },
    ]);
  });
});
