import { sql } from 'kysely';
import { daysUntil, type OpportunityDetail, type OpportunityFilter, type OpportunitySummary } from '../../domain';
import type { Db } from '../../infra/db/database';

function baseQuery(db: Db) {
  return db
    .selectFrom('opportunities as o')
    .select((eb) => [
      'o.id',
      'o.name',
      'o.kind',
      'o.address',
      'o.organization_id',
      'o.lottery_end_date',
      'o.description',
      'o.amenities',
      'o.requirements',
      'o.income_ranges',
      eb.selectFrom('units').select(eb.fn.countAll<string>().as('n')).whereRef('units.opportunity_id', '=', 'o.id').as('unit_count'),
    ])
    .where('o.published', '=', true);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function summary(row: Row, now: Date): OpportunitySummary {
  const lotteryEndDate = String(row.lottery_end_date);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    address: row.address,
    organizationId: row.organization_id,
    lotteryEndDate,
    daysRemaining: daysUntil(lotteryEndDate, now),
    unitCount: Number(row.unit_count ?? 0),
  };
}

/** Published opportunities, filtered (spec section 2), soonest lottery end first. */
export async function listPublished(db: Db, filter: OpportunityFilter, now = new Date()): Promise<OpportunitySummary[]> {
  let query = baseQuery(db);
  if (filter.type !== 'all') query = query.where('o.kind', '=', filter.type);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('o.name', 'ilike', pattern), eb('o.address', 'ilike', pattern)]));
  }
  const rows = await query.orderBy('o.lottery_end_date').orderBy('o.name').execute();
  return rows.map((r) => summary(r, now));
}

export async function getPublished(db: Db, id: string, now = new Date()): Promise<OpportunityDetail | null> {
  const row = await baseQuery(db).where('o.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const units = await db.selectFrom('units').selectAll().where('opportunity_id', '=', id).orderBy(sql`unit_number`).execute();
  return {
    ...summary(row, now),
    description: row.description,
    amenities: row.amenities,
    requirements: row.requirements,
    incomeRanges: row.income_ranges,
    units: units.map((u) => ({
      id: u.id,
      unitNumber: u.unit_number,
      bedroomType: u.bedroom_type,
      address: u.address,
      accessibility: u.accessibility,
      monthlyRent: Number(u.monthly_rent),
      amiPercent: u.ami_percent,
    })),
  };
}
