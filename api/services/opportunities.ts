import { sql } from 'kysely';
import { daysUntil, type FilteredOpportunityQuery, type OpportunityDetail, type OpportunityFilter, type OpportunitySummary } from '../../domain';
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
      'o.mailing_address',
      'o.amenities',
      'o.requirements',
      'o.income_ranges',
      'o.building',
      'o.paper_application_key',
      eb.selectFrom('units').select(eb.fn.countAll<string>().as('n')).whereRef('units.opportunity_id', '=', 'o.id').as('unit_count'),
    ])
    .where('o.published', '=', true);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function summary(row: Row, now: Date): OpportunitySummary {
  return opportunitySummary(row, Number(row.unit_count ?? 0), now);
}

/** The summary of one opportunity row, with the lottery countdown in days (spec section 2). */
export function opportunitySummary(
  row: Pick<Row, 'id' | 'name' | 'kind' | 'address' | 'organization_id' | 'lottery_end_date'>,
  unitCount: number,
  now: Date,
): OpportunitySummary {
  const lotteryEndDate = String(row.lottery_end_date);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    address: row.address,
    organizationId: row.organization_id,
    lotteryEndDate,
    daysRemaining: daysUntil(lotteryEndDate, now),
    unitCount,
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
  const [units, lottery] = await Promise.all([
    db.selectFrom('units').selectAll().where('opportunity_id', '=', id).orderBy(sql`unit_number`).execute(),
    db.selectFrom('opportunity_lotteries').select('drawn_at').where('opportunity_id', '=', id).executeTakeFirst(),
  ]);
  return {
    ...summary(row, now),
    lotteryDrawn: !!lottery?.drawn_at,
    description: row.description,
    amenities: row.amenities,
    requirements: row.requirements,
    incomeRanges: row.income_ranges,
    building: row.building,
    mailingAddress: row.mailing_address,
    hasPaperApplication: !!row.paper_application_key,
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

/**
 * `filtered-opportunities`: the published list with the rental/ownership/all filter, search, sort by
 * days remaining, and (signed in) each one's favourite flag or only the favourites.
 */
export async function listFiltered(db: Db, query: FilteredOpportunityQuery, userId: string | null, now = new Date()): Promise<OpportunitySummary[]> {
  const list = await listPublished(db, query, now);
  const favorites = userId ? new Set(await favoriteIds(db, userId)) : new Set<string>();
  const marked = list.map((o) => (userId ? { ...o, isFavorite: favorites.has(o.id) } : o));
  const filtered = query.favoritesOnly === 'true' ? marked.filter((o) => o.isFavorite) : marked;
  return filtered.sort((a, b) => (query.sort === 'daysRemainingDesc' ? b.daysRemaining - a.daysRemaining : a.daysRemaining - b.daysRemaining));
}

export async function favoriteIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('favorite_opportunities').select('opportunity_id').where('user_id', '=', userId).where('is_favorite', '=', true).execute();
  return rows.map((r) => r.opportunity_id);
}

/** Add or update a favourite (spec section 7); only published opportunities can be favoured. */
export async function setFavorite(db: Db, userId: string, opportunityId: string, isFavorite: boolean): Promise<boolean> {
  const published = await db.selectFrom('opportunities').select('id').where('id', '=', opportunityId).where('published', '=', true).executeTakeFirst();
  if (!published) return false;
  await db
    .insertInto('favorite_opportunities')
    .values({ user_id: userId, opportunity_id: opportunityId, is_favorite: isFavorite })
    .onConflict((oc) => oc.columns(['user_id', 'opportunity_id']).doUpdateSet({ is_favorite: isFavorite, updated_at: new Date() }))
    .execute();
  return true;
}

/** The user's favourite published opportunities, soonest lottery end first. */
export async function listFavorites(db: Db, userId: string, now = new Date()): Promise<OpportunitySummary[]> {
  const ids = new Set(await favoriteIds(db, userId));
  const all = await listPublished(db, { type: 'all' }, now);
  return all.filter((o) => ids.has(o.id)).map((o) => ({ ...o, isFavorite: true }));
}
