import { createHash, randomBytes } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import {
  alertDigestKey,
  alertMatches,
  alertNoticeKey,
  digestWeek,
  listingSizes,
  type AlertCriteria,
  type AlertListing,
  type AlertPersonalCriteria,
  type AlertView,
  type ListingArea,
} from '../../../domain/listing-alerts';
import type { LotteryGroup } from '../../../domain/lottery';
import { dataCipher, openJson, sealJson } from '../../data-keys';
import { recordIssuedSecret } from '../../secret-ledger';
import type { Db } from '../database';
import type { ListingAlertTable } from '../schema/listing-alerts';
import { householdIncomeTotal } from './household-income-total';
import { enqueueNotifications, type NotificationRequest } from './notification-outbox';

/**
 * Listing alerts in the database: the tokens of their links, their sealed personal criteria, and
 * the fan-out of one published listing and of a week's digest, a batch per call. Each batch is one
 * transaction that writes the ledger (listing, alert) and queues the outbox rows together, so a
 * batch retried after a crash finds its pairs in the ledger and queues nothing twice.
 */

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A link token and its hash (only the hash is looked up); the test run's ledger learns the token. */
export function newToken(kind: string): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  recordIssuedSecret(kind, token);
  return { token, hash: tokenHash(token) };
}

export const sealPersonal = (p: AlertPersonalCriteria) => sealJson(p);
export const openPersonal = (sealed: string): AlertPersonalCriteria => openJson<AlertPersonalCriteria>(JSON.parse(sealed));

type Row = Selectable<ListingAlertTable>;
type AlertRow = Pick<Row, 'tenure' | 'bedroom_types' | 'areas' | 'accessibility' | 'set_aside_groups' | 'personal_sealed'>;

export function criteriaOf(row: AlertRow): AlertCriteria {
  const personal = openPersonal(row.personal_sealed);
  return {
    tenure: row.tenure,
    bedroomTypes: row.bedroom_types as AlertCriteria['bedroomTypes'],
    areas: row.areas as AlertCriteria['areas'],
    accessibility: row.accessibility as AlertCriteria['accessibility'],
    setAsideGroups: row.set_aside_groups as AlertCriteria['setAsideGroups'],
    householdSize: personal.householdSize,
    yearlyIncome: personal.yearlyIncome,
    useProfile: personal.useProfile,
  };
}

export function alertView(row: Pick<Row, 'id' | 'channel' | 'language' | 'frequency' | 'status' | 'created_at'> & AlertRow): AlertView {
  return { id: row.id, criteria: criteriaOf(row), channel: row.channel, language: row.language, frequency: row.frequency, status: row.status, createdAt: row.created_at.toISOString() };
}

/** The columns an alert's criteria are stored in: plain what SQL filters on, sealed what is personal. */
export function criteriaColumns(c: AlertCriteria) {
  return {
    tenure: c.tenure,
    bedroom_types: c.bedroomTypes,
    areas: c.areas,
    accessibility: c.accessibility,
    set_aside_groups: c.setAsideGroups,
    personal_sealed: sealPersonal({ householdSize: c.householdSize, yearlyIncome: c.yearlyIncome, useProfile: c.useProfile }),
  };
}

/** What the notice of one listing says, and what its alerts are matched against. */
interface Listing {
  rule: AlertListing;
  params: { listingName: string; deadline: string; rentMin: number; rentMax: number; listingPath: string };
}

async function readListing(db: Db, opportunityId: string): Promise<Listing | null> {
  const row = await db
    .selectFrom('opportunities')
    .select(['id', 'name', 'kind', 'area', 'income_ranges', 'lottery_set_asides', 'lottery_end_date', 'published'])
    .where('id', '=', opportunityId)
    .executeTakeFirst();
  if (!row?.published) return null;
  const units = await db.selectFrom('units').select(['bedroom_type', 'accessibility', 'monthly_rent']).where('opportunity_id', '=', opportunityId).execute();
  const rents = units.map((u) => Number(u.monthly_rent));
  return {
    rule: {
      kind: row.kind,
      area: (row.area as ListingArea | null) ?? null,
      units: units.map((u) => ({ bedroomType: u.bedroom_type, accessibility: u.accessibility })),
      incomeRanges: row.income_ranges,
      setAsideGroups: (row.lottery_set_asides ?? []).map((s: { group: LotteryGroup }) => s.group),
    },
    params: {
      listingName: row.name,
      deadline: String(row.lottery_end_date).slice(0, 10),
      rentMin: rents.length ? Math.min(...rents) : 0,
      rentMax: rents.length ? Math.max(...rents) : 0,
      listingPath: `/public/opportunity/${row.id}`,
    },
  };
}

/** "Use my profile": the household's size and yearly income, read (and decrypted) here, never in SQL. */
async function profileFigures(db: Db, userIds: string[]): Promise<Map<string, { householdSize: number | null; yearlyIncome: number | null }>> {
  const figures = new Map<string, { householdSize: number | null; yearlyIncome: number | null }>();
  if (userIds.length === 0) return figures;
  const households = await db.selectFrom('households').select(['id', 'head_user_id', 'household_size']).where('head_user_id', 'in', userIds).execute();
  for (const h of households) figures.set(h.head_user_id, { householdSize: h.household_size, yearlyIncome: await householdIncomeTotal(db, h.id) });
  return figures;
}

interface Recipient {
  id: string;
  user_id: string | null;
  channel: 'email' | 'sms';
  language: string;
  contact_sealed: string | null;
  unsubscribe_token_sealed: string;
}

/** Where each alert's notice goes: the account's address or number, or the visitor's (unsealed here). */
async function addresses(db: Db, alerts: Recipient[]): Promise<Map<string, string>> {
  const userIds = [...new Set(alerts.map((a) => a.user_id).filter((id): id is string => id !== null))];
  const users = userIds.length ? await db.selectFrom('users').select(['id', 'email', 'phone_number']).where('id', 'in', userIds).execute() : [];
  const byUser = new Map(users.map((u) => [u.id, u]));
  const out = new Map<string, string>();
  for (const a of alerts) {
    const address = a.user_id ? (a.channel === 'email' ? byUser.get(a.user_id)?.email : byUser.get(a.user_id)?.phone_number) : a.contact_sealed && dataCipher().decrypt(a.contact_sealed);
    if (address) out.set(a.id, address);
  }
  return out;
}

export interface FanOutBatch {
  /** Where the next batch starts (the last alert id read), null when every alert was read. */
  next: string | null;
  matched: number;
  queued: number;
}

/**
 * One batch of a listing's fan-out: the next `limit` active alerts after `after` (by id) that the
 * SQL pre-filter keeps (tenure, sizes, area: plain columns), matched in code with their decrypted
 * size and income; each match is written to the ledger and, for an alert sent at once, its notice
 * queued, in one transaction. A weekly alert's match waits in the ledger for its week's digest.
 */
export async function fanOutBatch(db: Db, input: { opportunityId: string; after: string | null; limit: number; now?: number }): Promise<FanOutBatch> {
  const listing = await readListing(db, input.opportunityId);
  if (!listing) return { next: null, matched: 0, queued: 0 };
  const sizes = listingSizes(listing.rule);
  const week = digestWeek(new Date(input.now ?? Date.now()));
  return db.transaction().execute(async (trx) => {
    let q = trx
      .selectFrom('listing_alerts')
      .select(['id', 'user_id', 'channel', 'language', 'frequency', 'contact_sealed', 'unsubscribe_token_sealed', 'tenure', 'bedroom_types', 'areas', 'accessibility', 'set_aside_groups', 'personal_sealed'])
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('tenure', 'is', null), eb('tenure', '=', listing.rule.kind)]))
      .where(sql<boolean>`(bedroom_types = '{}' or bedroom_types && ${sql.val(sizes)}::text[])`)
      .where(listing.rule.area ? sql<boolean>`(areas = '{}' or ${listing.rule.area} = any(areas))` : sql<boolean>`areas = '{}'`);
    if (input.after) q = q.where('id', '>', input.after);
    const rows = await q.orderBy('id').limit(input.limit).execute();
    const next = rows.length < input.limit ? null : rows.at(-1)!.id;
    const profileUsers = rows.filter((r) => r.user_id && openPersonal(r.personal_sealed).useProfile).map((r) => r.user_id!);
    const profiles = await profileFigures(trx, profileUsers);
    const matches = rows.filter((row) => {
      const c = criteriaOf(row);
      const personal = c.useProfile ? (profiles.get(row.user_id ?? '') ?? { householdSize: null, yearlyIncome: null }) : c;
      return alertMatches({ ...c, householdSize: personal.householdSize, yearlyIncome: personal.yearlyIncome }, listing.rule);
    });
    if (matches.length === 0) return { next, matched: 0, queued: 0 };
    const fresh = await trx
      .insertInto('listing_alert_notices')
      .values(matches.map((m) => ({ opportunity_id: input.opportunityId, alert_id: m.id, digest_week: m.frequency === 'weekly' ? week : null })))
      .onConflict((oc) => oc.columns(['opportunity_id', 'alert_id']).doNothing())
      .returning('alert_id')
      .execute();
    const freshIds = new Set(fresh.map((f) => f.alert_id));
    const immediate = matches.filter((m) => m.frequency === 'immediate' && freshIds.has(m.id));
    const to = await addresses(trx, immediate);
    const notices: NotificationRequest[] = immediate
      .filter((m) => to.has(m.id))
      .map((m) => ({
        userId: m.user_id,
        channel: m.channel,
        toAddress: to.get(m.id)!,
        template: 'listing-alert',
        language: m.language,
        params: { ...listing.params, unsubscribeToken: dataCipher().decrypt(m.unsubscribe_token_sealed) },
        dedupeKey: alertNoticeKey(input.opportunityId, m.id),
      }));
    const queued = await enqueueNotifications(trx, notices);
    return { next, matched: matches.length, queued };
  });
}

/**
 * One batch of a week's digest: the next `limit` alerts (by id) with matches of that week not yet
 * sent, each sent one digest of all its matches (keyed by week and alert), and its matches marked.
 * An alert paused or deleted since gets nothing (and its matches are marked all the same).
 */
export async function digestBatch(db: Db, input: { week: string; after: string | null; limit: number }): Promise<FanOutBatch> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('listing_alert_notices').select('alert_id').distinct().where('digest_week', '=', input.week).where('digested_at', 'is', null);
    if (input.after) q = q.where('alert_id', '>', input.after);
    const ids = (await q.orderBy('alert_id').limit(input.limit).execute()).map((r) => r.alert_id);
    const next = ids.length < input.limit ? null : ids.at(-1)!;
    if (ids.length === 0) return { next, matched: 0, queued: 0 };
    const pending = await trx
      .selectFrom('listing_alert_notices as n')
      .innerJoin('opportunities as o', 'o.id', 'n.opportunity_id')
      .select(['n.alert_id', 'n.opportunity_id'])
      .where('n.digest_week', '=', input.week)
      .where('n.digested_at', 'is', null)
      .where('n.alert_id', 'in', ids)
      .where('o.published', '=', true)
      .orderBy('n.created_at')
      .execute();
    const alerts = await trx
      .selectFrom('listing_alerts')
      .select(['id', 'user_id', 'channel', 'language', 'contact_sealed', 'unsubscribe_token_sealed'])
      .where('id', 'in', ids)
      .where('status', '=', 'active')
      .execute();
    const listings = new Map<string, Listing['params']>();
    for (const opportunityId of new Set(pending.map((p) => p.opportunity_id))) {
      const l = await readListing(trx, opportunityId);
      if (l) listings.set(opportunityId, l.params);
    }
    const to = await addresses(trx, alerts);
    const notices: NotificationRequest[] = alerts
      .filter((a) => to.has(a.id))
      .map((a) => ({ a, items: pending.filter((p) => p.alert_id === a.id).map((p) => listings.get(p.opportunity_id)).filter((l) => l !== undefined) }))
      .filter(({ items }) => items.length > 0)
      .map(({ a, items }) => ({
        userId: a.user_id,
        channel: a.channel,
        toAddress: to.get(a.id)!,
        template: 'listing-alert-digest',
        language: a.language,
        params: { listings: items, unsubscribeToken: dataCipher().decrypt(a.unsubscribe_token_sealed) },
        dedupeKey: alertDigestKey(input.week, a.id),
      }));
    const queued = await enqueueNotifications(trx, notices);
    await trx.updateTable('listing_alert_notices').set({ digested_at: new Date() }).where('digest_week', '=', input.week).where('alert_id', 'in', ids).where('digested_at', 'is', null).execute();
    return { next, matched: ids.length, queued };
  });
}
