import { z } from 'zod';
import { ACCESSIBILITY_TAGS, UNIT_SIZES } from './household';
import { LOTTERY_GROUPS, type LotteryGroup } from './lottery';
import { LISTING_AREAS, OPPORTUNITY_KINDS, type ListingArea, type OpportunityKind } from './opportunity-filter';

/**
 * Listing alerts: what a household, or a signed-out visitor with only an e-mail
 * address or a mobile number, wants to hear about, and the one rule that says whether a published
 * listing fits. The criteria reuse the opportunity's and the profile's own vocabularies: tenure is
 * the opportunity kind, sizes are the profile's unit sizes, areas the five boroughs (counties),
 * accessibility the profile's tags, groups the lottery's set-aside groups.
 */
export const ALERT_CHANNELS = ['email', 'sms'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export const ALERT_LANGUAGES = ['en', 'es', 'zh', 'bn'] as const;
export type AlertLanguage = (typeof ALERT_LANGUAGES)[number];
export const ALERT_FREQUENCIES = ['immediate', 'weekly'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export const ALERT_STATUSES = ['pending_confirmation', 'active', 'paused'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
/** A listing's area: the borough it stands in (the profile's county codes). */
export { LISTING_AREAS, type ListingArea };
export type UnitSize = (typeof UNIT_SIZES)[number];
export type AccessibilityTag = (typeof ACCESSIBILITY_TAGS)[number];

/** Alerts one person may keep (each is matched against every listing published). */
export const MAX_ALERTS_PER_PERSON = 20;
/** Subscriptions matched and notified per activity call of the fan-out. */
export const ALERT_FANOUT_BATCH = 500;
/** A confirmation link or text stays valid this long; an unconfirmed subscription is then dropped. */
export const ALERT_CONFIRMATION_DAYS = 7;
/** Confirmation messages one contact address may be sent per hour, whoever asks. */
export const ALERT_SUBSCRIBE_PER_CONTACT_PER_HOUR = 3;

const uniqueArray = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .array(z.enum(values))
    .max(values.length)
    .default([])
    .transform((list) => [...new Set(list)]);

/**
 * What an alert asks for. Empty lists and null mean "any". `householdSize` and `yearlyIncome` are
 * personal: they are stored sealed and matched in code, never in SQL. With `useProfile` they are
 * read from the signed-in household's profile when a listing is matched.
 */
export const AlertCriteria = z
  .object({
    tenure: z.enum(OPPORTUNITY_KINDS).nullish().transform((v) => v ?? null),
    bedroomTypes: uniqueArray(UNIT_SIZES),
    householdSize: z.number().int().min(1).max(20).nullish().transform((v) => v ?? null),
    yearlyIncome: z.number().min(0).max(10_000_000).nullish().transform((v) => v ?? null),
    useProfile: z.boolean().default(false),
    accessibility: uniqueArray(ACCESSIBILITY_TAGS),
    areas: uniqueArray(LISTING_AREAS),
    setAsideGroups: uniqueArray(LOTTERY_GROUPS),
  })
  .strict();
export type AlertCriteria = z.infer<typeof AlertCriteria>;
export type AlertCriteriaInput = z.input<typeof AlertCriteria>;

/** The parts of an alert no rule needs to decrypt: stored in plain columns the fan-out filters on. */
export type AlertPublicCriteria = Omit<AlertCriteria, 'householdSize' | 'yearlyIncome' | 'useProfile'>;
/** The personal parts, stored sealed. */
export interface AlertPersonalCriteria {
  householdSize: number | null;
  yearlyIncome: number | null;
  useProfile: boolean;
}

export function splitCriteria(c: AlertCriteria): { open: AlertPublicCriteria; personal: AlertPersonalCriteria } {
  const { householdSize, yearlyIncome, useProfile, ...open } = c;
  return { open, personal: { householdSize, yearlyIncome, useProfile } };
}

/** A signed-in household's alert, as it creates or changes it. */
export const AlertInput = z
  .object({
    criteria: AlertCriteria,
    channel: z.enum(ALERT_CHANNELS).default('email'),
    language: z.enum(ALERT_LANGUAGES).default('en'),
    frequency: z.enum(ALERT_FREQUENCIES).default('immediate'),
  })
  .strict();
export type AlertInput = z.infer<typeof AlertInput>;

const PHONE = /^\+?[0-9 ().-]{7,20}$/;

/**
 * A signed-out visitor's subscription: only an e-mail address or a mobile number (the channel
 * follows), confirmed by a link or by replying YES before anything is sent. "Use my profile" needs
 * an account, so it is refused here.
 */
export const PublicSubscribeInput = z
  .object({
    criteria: AlertCriteria.refine((c) => !c.useProfile, { path: ['useProfile'] }),
    email: z.string().trim().toLowerCase().email().max(254).optional(),
    phone: z.string().trim().regex(PHONE).optional(),
    language: z.enum(ALERT_LANGUAGES).default('en'),
    frequency: z.enum(ALERT_FREQUENCIES).default('immediate'),
  })
  .strict()
  .refine((v) => (v.email ? 1 : 0) + (v.phone ? 1 : 0) === 1, { path: ['email'] });
export type PublicSubscribeInput = z.infer<typeof PublicSubscribeInput>;

/** A confirm or unsubscribe link's token (only a POST acts on it). */
export const AlertToken = z.object({ token: z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/) });

export interface AlertView {
  id: string;
  criteria: AlertCriteria;
  channel: AlertChannel;
  language: AlertLanguage;
  frequency: AlertFrequency;
  status: AlertStatus;
  createdAt: string;
}

/** A listing as the matching rule reads it: its kind, area, units, income ranges and set-asides. */
export interface AlertListing {
  kind: OpportunityKind;
  area: ListingArea | null;
  units: { bedroomType: string; accessibility: string[] }[];
  incomeRanges: { householdSize: number; min: number; max: number }[];
  setAsideGroups: LotteryGroup[];
}

/**
 * A unit's bedroom type as the manager typed it ('Studio', '1 bedroom', '2BR', '4+ bedrooms') read
 * as one of the profile's unit sizes; null when it names none.
 */
export function unitSizeOf(bedroomType: string): UnitSize | null {
  const text = bedroomType.trim().toLowerCase();
  if (/studio|efficiency|\b0\s*(br|bed)/.test(text)) return 'studio';
  const n = /(\d+)/.exec(text);
  if (!n) return null;
  const count = Number(n[1]);
  if (count === 0) return 'studio';
  return UNIT_SIZES[Math.min(count, 4)] ?? null;
}

/** The sizes a listing's units offer (the fan-out's SQL pre-filter reads the same set). */
export function listingSizes(listing: Pick<AlertListing, 'units'>): UnitSize[] {
  return [...new Set(listing.units.map((u) => unitSizeOf(u.bedroomType)).filter((s): s is UnitSize => s !== null))];
}

const hasTag = (unit: { accessibility: string[] }, tag: AccessibilityTag) => unit.accessibility.some((a) => a.toLowerCase().includes(tag));

/**
 * Whether a published listing fits an alert, by the listing's own rules:
 * - tenure and area as asked (a listing without a recorded area fits only alerts for any area);
 * - at least one unit of an asked size that also has every asked accessibility feature;
 * - with a household size: the listing has an income range for that size (a listing with no
 *   ranges at all sets none, so fits), and with an income too, the income lies within it;
 * - with set-aside groups: the listing sets units aside for at least one of them.
 * `personal` is the decrypted size and income (from the alert, or the profile with "use my profile").
 */
export function alertMatches(criteria: AlertPublicCriteria & Partial<AlertPersonalCriteria>, listing: AlertListing): boolean {
  if (criteria.tenure && criteria.tenure !== listing.kind) return false;
  if (criteria.areas.length > 0 && (listing.area === null || !criteria.areas.includes(listing.area))) return false;
  const fitting = listing.units.filter((unit) => {
    const size = unitSizeOf(unit.bedroomType);
    if (criteria.bedroomTypes.length > 0 && (size === null || !criteria.bedroomTypes.includes(size))) return false;
    return criteria.accessibility.every((tag) => hasTag(unit, tag));
  });
  if (fitting.length === 0) return false;
  const size = criteria.householdSize ?? null;
  if (size !== null && listing.incomeRanges.length > 0) {
    const range = listing.incomeRanges.find((r) => r.householdSize === size);
    if (!range) return false;
    const income = criteria.yearlyIncome ?? null;
    if (income !== null && (income < range.min || income > range.max)) return false;
  }
  if (criteria.setAsideGroups.length > 0 && !criteria.setAsideGroups.some((g) => listing.setAsideGroups.includes(g))) return false;
  return true;
}

/** The fan-out's workflow id: one per published listing, no personal data. */
export const listingAlertsWorkflowId = (opportunityId: string) => `listing-alerts/${opportunityId}`;
/** The one workflow that sends each week's digests (it waits for each week's end on a durable timer). */
export const ALERT_DIGESTS_WORKFLOW_ID = 'listing-alert-digests';
/** The outbox key of one listing's notice to one subscription: sent once, however often retried. */
export const alertNoticeKey = (opportunityId: string, subscriptionId: string) => `alert:${opportunityId}:${subscriptionId}`;
export const alertDigestKey = (week: string, subscriptionId: string) => `alert-digest:${week}:${subscriptionId}`;

/** The Monday (UTC calendar date) of the week `at` falls in: the digest's key. */
export function digestWeek(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/** The Monday after the week of `week` (a Monday). */
export function nextDigestWeek(week: string): string {
  const day = new Date(`${week}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 7);
  return day.toISOString().slice(0, 10);
}

/** Web and notice paths of the alert pages (the tokens are in the query; the pages POST them). */
export const ALERT_PATHS = {
  mine: '/alerts',
  subscribe: '/get-alerts',
  confirm: '/alerts/confirm',
  unsubscribe: '/alerts/unsubscribe',
} as const;
/** The API's RFC 8058 one-click unsubscribe endpoint (a mail client POSTs `List-Unsubscribe=One-Click`). */
export const ALERT_ONE_CLICK_PATH = '/api/ListingAlerts/one-click';
