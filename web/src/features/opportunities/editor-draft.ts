import { LOTTERY_GROUPS, OpportunityInput, type LotteryGroup, type ManagedOpportunity, type OpportunityDetail } from '../../lib/domain';

/** The layouts and accessibility features a unit can have (stored as these English words, shown translated). */
export const BEDROOMS = ['Studio', '1 bedroom', '2 bedrooms', '3 bedrooms', '4 bedrooms'] as const;
export const ACCESSIBILITY = ['Mobility', 'Hearing', 'Vision'] as const;

export interface UnitDraft {
  unitNumber: string;
  bedroomType: string;
  monthlyRent: string;
  amiPercent: string;
  accessibility: string[];
}
export interface RequirementDraft {
  amiPercent: string;
  layout: string;
  monthlyRent: string;
}
export interface IncomeDraft {
  householdSize: string;
  min: string;
  max: string;
}
export interface SetAsideDraft {
  group: LotteryGroup;
  percent: string;
}

/** What the editor holds: every input as the text typed, read by the shared schema on save. */
export interface OpportunityDraft {
  name: string;
  kind: 'rental' | 'ownership';
  building: string;
  address: string;
  /** The borough (a county code), or '' when not given. */
  area: string;
  mailingAddress: string;
  description: string;
  amenities: string;
  lotteryEndDate: string;
  selection: 'first_come' | 'lottery';
  communityBoard: string;
  mailGraceDays: string;
  setAsides: SetAsideDraft[];
  units: UnitDraft[];
  requirements: RequirementDraft[];
  incomeRanges: IncomeDraft[];
  settings: { offerExpiryDays: string; appealWindowDays: string; appealDecisionBusinessDays: string; additionalDocumentsDays: string };
}

export const SETTING_KEYS = ['offerExpiryDays', 'appealWindowDays', 'appealDecisionBusinessDays', 'additionalDocumentsDays'] as const;

export const emptyUnit = (): UnitDraft => ({ unitNumber: '', bedroomType: BEDROOMS[1], monthlyRent: '', amiPercent: '', accessibility: [] });
export const emptyRequirement = (): RequirementDraft => ({ amiPercent: '', layout: BEDROOMS[1], monthlyRent: '' });
export const emptyIncome = (): IncomeDraft => ({ householdSize: '', min: '', max: '' });
export const emptySetAside = (taken: LotteryGroup[]): SetAsideDraft => ({ group: LOTTERY_GROUPS.find((g) => !taken.includes(g)) ?? LOTTERY_GROUPS[0], percent: '' });

export function emptyDraft(): OpportunityDraft {
  return {
    name: '',
    kind: 'rental',
    building: '',
    address: '',
    area: '',
    mailingAddress: '',
    description: '',
    amenities: '',
    lotteryEndDate: '',
    selection: 'first_come',
    communityBoard: '',
    mailGraceDays: '',
    setAsides: [],
    units: [emptyUnit()],
    requirements: [],
    incomeRanges: [],
    settings: { offerExpiryDays: '', appealWindowDays: '', appealDecisionBusinessDays: '', additionalDocumentsDays: '' },
  };
}

const text = (n: number | undefined) => (n === undefined || n === null ? '' : String(n));

export function draftOf(o: ManagedOpportunity): OpportunityDraft {
  return {
    name: o.name,
    kind: o.kind,
    building: o.building,
    address: o.address,
    area: o.area ?? '',
    mailingAddress: o.mailingAddress ?? '',
    description: o.description,
    amenities: o.amenities.join(', '),
    lotteryEndDate: o.lotteryEndDate.slice(0, 10),
    selection: o.selection,
    communityBoard: o.lottery.communityBoard ?? '',
    // Opportunities read before the grace period existed have none: the default applies.
    mailGraceDays: text(o.lottery.mailGraceDays),
    setAsides: o.lottery.setAsides.map((s) => ({ group: s.group, percent: text(Math.round(s.share * 10_000) / 100) })),
    units: o.units.map((u) => ({ unitNumber: u.unitNumber, bedroomType: u.bedroomType, monthlyRent: text(u.monthlyRent), amiPercent: text(u.amiPercent), accessibility: u.accessibility })),
    requirements: o.requirements.map((r) => ({ amiPercent: text(r.amiPercent), layout: r.layout, monthlyRent: text(r.monthlyRent) })),
    incomeRanges: o.incomeRanges.map((r) => ({ householdSize: text(r.householdSize), min: text(r.min), max: text(r.max) })),
    settings: { offerExpiryDays: text(o.settings.offerExpiryDays), appealWindowDays: text(o.settings.appealWindowDays), appealDecisionBusinessDays: text(o.settings.appealDecisionBusinessDays), additionalDocumentsDays: text(o.settings.additionalDocumentsDays) },
  };
}

/** The draft as the API's body, before the schema reads it (numbers stay text: the schema parses them). */
function rawInput(d: OpportunityDraft) {
  return {
    name: d.name,
    kind: d.kind,
    building: d.building,
    address: d.address,
    area: d.area,
    mailingAddress: d.mailingAddress,
    description: d.description,
    amenities: d.amenities.split(',').map((a) => a.trim()).filter(Boolean),
    lotteryEndDate: d.lotteryEndDate,
    selection: d.selection,
    lottery:
      d.selection === 'lottery'
        ? { setAsides: d.setAsides.map((s) => ({ group: s.group, share: s.percent.trim() === '' ? undefined : Number(s.percent) / 100 })), ...(d.communityBoard.trim() ? { communityBoard: d.communityBoard } : {}), ...(d.mailGraceDays.trim() ? { mailGraceDays: d.mailGraceDays } : {}) }
        : { setAsides: [] },
    units: d.units.map((u) => ({ ...u })),
    requirements: d.requirements.map((r) => ({ ...r })),
    incomeRanges: d.incomeRanges.map((r) => ({ ...r })),
    settings: Object.fromEntries(SETTING_KEYS.filter((k) => d.settings[k].trim() !== '').map((k) => [k, d.settings[k]])),
  };
}

/** The field key ('units.0.monthlyRent') each problem belongs to, with the schema's (spec) message. */
export function checkDraft(d: OpportunityDraft): { ok: true; input: OpportunityInput } | { ok: false; errors: Record<string, string> } {
  const parsed = OpportunityInput.safeParse(rawInput(d));
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join('.');
    // Set-aside shares are typed as percentages: their checks belong to the percent box.
    const field = key.replace(/^lottery\.setAsides\.(\d+)\.share$/, 'lottery.setAsides.$1.percent');
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

const num = (v: string) => {
  const n = Number(v.replace(/[,$\s]/g, ''));
  return v.trim() === '' || Number.isNaN(n) ? 0 : n;
};

/** The public page as it would read now (the preview): what is typed, numbers read leniently. */
export function previewOf(d: OpportunityDraft, id: string, today: Date): OpportunityDetail {
  const end = d.lotteryEndDate || today.toISOString().slice(0, 10);
  const days = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())) / 86_400_000);
  return {
    id,
    name: d.name,
    kind: d.kind,
    address: d.address,
    organizationId: '',
    lotteryEndDate: end,
    daysRemaining: Number.isNaN(days) ? 0 : days,
    unitCount: d.units.length,
    description: d.description,
    mailingAddress: d.mailingAddress,
    building: d.building,
    amenities: d.amenities.split(',').map((a) => a.trim()).filter(Boolean),
    units: d.units.map((u, i) => ({ id: String(i), unitNumber: u.unitNumber, bedroomType: u.bedroomType, address: d.address, accessibility: u.accessibility, monthlyRent: num(u.monthlyRent), amiPercent: num(u.amiPercent) })),
    requirements: d.requirements.map((r) => ({ amiPercent: num(r.amiPercent), layout: r.layout, monthlyRent: num(r.monthlyRent) })),
    incomeRanges: d.incomeRanges.map((r) => ({ householdSize: num(r.householdSize), min: num(r.min), max: num(r.max) })),
  };
}
