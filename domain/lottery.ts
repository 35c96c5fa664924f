import { z } from 'zod';
import { DAY } from './time';

/**
 * The opportunity's lottery: one durable case per lottery opportunity. Applications are
 * accepted until the deadline (by mail, postmarked by the deadline, for the grace period after it),
 * the list is then frozen and its hash published, a manager draws with a public value, and
 * households are invited to lease-up in rank order; a unit given back invites the next in line.
 * When every unit is leased the lottery is `filled` and keeps its ranked waitlist for re-rentals.
 */
export const LOTTERY_STAGES = ['accepting', 'closed', 'drawing', 'drawn', 'filled', 'closed_out'] as const;
export type LotteryStage = (typeof LOTTERY_STAGES)[number];

/** Preference groups a household can qualify for, read from its profile when it applies. */
export const LOTTERY_GROUPS = ['disability', 'senior', 'community'] as const;
export type LotteryGroup = (typeof LOTTERY_GROUPS)[number];

export const LotterySetAside = z.object({ group: z.enum(LOTTERY_GROUPS), share: z.number().gt(0).max(1) });
export type LotterySetAside = z.infer<typeof LotterySetAside>;

/** Invitations are made this many at a time, so other actions (pause) take effect between batches. */
export const INVITATION_BATCH = 100;
/** The most households one InviteNext may ask for (the whole list of a large lottery). */
export const MAX_INVITATION = 100_000;

export type LotteryRole = 'manager' | 'system';

/** How an invited household gives its place back (each invites the next in line). */
export const PLACE_RELEASES = ['offer_declined', 'offer_expired', 'withdrawn', 'rejected'] as const;
export type PlaceRelease = (typeof PLACE_RELEASES)[number];

const Reason = z.string().trim().min(1, 'Please provide a reason.').max(2000);
const Base = z.object({ reason: Reason.optional() });

/** The input of each lottery action, as its Update (or, for the system's, Signal) carries it. */
export const LOTTERY_INPUTS = {
  /** A later last day for applications (ISO date). */
  ExtendDeadline: Base.extend({ deadline: z.string().date() }),
  /** The public value drawn in front of witnesses, mixed with the committed seed. */
  Draw: Base.extend({ publicValue: z.string().trim().min(1, 'Required').max(200) }),
  InviteNext: Base.extend({ count: z.number().int().min(1).max(MAX_INVITATION) }),
  PauseInvitations: Base,
  ResumeInvitations: Base,
  Close: Base,
  /** From a lease-up case of this lottery: its household gave its place back (once per application). */
  UnitReleased: Base.extend({ applicationId: z.string().uuid(), why: z.enum(PLACE_RELEASES), logNumber: z.string().max(40).optional() }),
  /** From a lease-up case of this lottery: its lease was signed (once per application); the last unit leased closes the lottery. */
  UnitLeased: Base.extend({ applicationId: z.string().uuid() }),
  /** Freezes the list now (after the grace period), e.g. once the last duplicate pair is decided. */
  FreezeList: Base,
  /**
   * A paper application whose household the API has stored (sealed) from the form: the workflow
   * decides whether it may enter by the postmark and the stage; the activity writes the application
   * with its log number, exactly as an online one (the draw never reads the channel).
   */
  EnterPaperApplication: Base.extend({
    householdId: z.string().uuid(),
    postmarkDate: z.string().date(),
    householdSize: z.number().int().min(1).max(20),
    householdIncome: z.number().min(0).max(100_000_000),
    /** The scanned form, stored as a document of the household. */
    formDocumentId: z.string().uuid(),
    /** The household's preference groups, read from what the form says, as for an online application. */
    groups: z.array(z.enum(LOTTERY_GROUPS)).max(LOTTERY_GROUPS.length),
  }),
  /** Which application of a possible duplicate pair stands; the other is withdrawn with a letter. */
  ResolveDuplicate: z.object({ pairId: z.string().uuid(), keep: z.string().uuid(), reason: Reason }),
  /** A leased unit is to be re-rented: the lottery leases again, inviting the next fitting household. */
  UnitReopened: Base.extend({ unit: z.string().trim().min(1, 'Required').max(40) }),
};
export type LotteryInputs = { [A in keyof typeof LOTTERY_INPUTS]: z.infer<(typeof LOTTERY_INPUTS)[A]> };
export type LotteryAction = keyof LotteryInputs;
export const LotteryManagerAction = z.enum([
  'ExtendDeadline',
  'EnterPaperApplication',
  'ResolveDuplicate',
  'FreezeList',
  'Draw',
  'InviteNext',
  'PauseInvitations',
  'ResumeInvitations',
  'UnitReopened',
  'Close',
]);
export type LotteryManagerAction = z.infer<typeof LotteryManagerAction>;

export interface StartLotteryInput {
  opportunityId: string;
  organizationId: string;
  /** Last day applications are accepted (ISO date, New York days are approximated by UTC). */
  deadline: string;
  units: number;
  /** SHA-256 of the secret seed, published when applications open. */
  seedHash: string;
  /**
   * Days after the deadline when mail postmarked by the deadline is still entered; the list freezes
   * at their end. Absent from runs started before the freeze existed: those draw without one and
   * close when every unit is leased, as they always did (so their histories replay unchanged).
   */
  mailGraceDays?: number;
}

/** The list as frozen: its hash (the draw's list hash rule) and size, published before the draw. */
export interface LotteryFreeze {
  listHash: string;
  entries: number;
  frozenAt: string;
}

/** What the freeze activity answers: the list frozen, or the undecided duplicate pairs (by log numbers) that stop it. */
export type FreezeOutcome = { frozen: LotteryFreeze } | { undecidedPairs: string[] };

/** The published outcome of the draw (the ranks themselves live in PostgreSQL, never in history). */
export interface LotteryDrawSummary {
  entries: number;
  algorithm: string;
  listHash: string;
  resultHash: string;
  drawnAt: string;
}

/** One invitation batch as the manager sees it. */
export interface InvitationBatch {
  at: string;
  invited: number;
  skipped: number;
  /** Why it happened: the manager's request, or a released place (which application, why). */
  because: string;
}

export interface LotteryView {
  opportunityId: string;
  organizationId: string;
  stage: LotteryStage;
  deadline: string;
  units: number;
  seedHash: string;
  publicValue: string | null;
  draw: LotteryDrawSummary | null;
  /** When the list freezes (end of the mail grace period); null for a lottery without a freeze. */
  listFreezesAt: string | null;
  frozen: LotteryFreeze | null;
  /** Undecided duplicate pairs (log numbers) that stopped the last attempt to freeze. */
  freezeBlockedBy: string[];
  /** Paper applications entered by the office. */
  paperEntries: number;
  paused: boolean;
  /** Invitations asked for and not made yet. */
  pendingInvitations: number;
  invited: number;
  skipped: number;
  /** Invited households whose lease is signed; the lottery closes once every unit is leased. */
  leased: number;
  /** Ranked households not invited yet (null before the draw). */
  waitlist: number | null;
  batches: InvitationBatch[];
  availableActions: { manager: LotteryManagerAction[] };
  version: number;
  updatedAt: string;
  history: { at: string; action: string; by: string; note?: string }[];
}

/** The first moment applications are no longer accepted: the day after the deadline (UTC). */
export function applicationsCloseAt(deadline: string): string {
  return new Date(Date.parse(`${deadline}T00:00:00.000Z`) + DAY).toISOString();
}

/** The end of the mail grace period: the list freezes then. */
export function listFreezesAt(deadline: string, mailGraceDays: number): string {
  return new Date(Date.parse(applicationsCloseAt(deadline)) + mailGraceDays * DAY).toISOString();
}

/** The lottery workflow's ID (plain text, so workflow code can build it to signal the lottery). */
export function lotteryWorkflowId(opportunityId: string): string {
  return `lottery/${opportunityId}`;
}

/** What an invitation tells the lease-up case: its rank, and why it was invited. */
export interface LotteryInvitation {
  rank: number;
  because: string;
}

/**
 * Why an invitation was made, as the lottery writes it: `manager <date>: <count>` for a manager's
 * batch, `<release> <log number or application ID>` for the next in line after a released place.
 */
export function invitationReason(because: string): { release: PlaceRelease; after: string } | null {
  const [why, after] = because.split(' ', 2);
  return (PLACE_RELEASES as readonly string[]).includes(why ?? '') && after ? { release: why as PlaceRelease, after } : null;
}

/**
 * Whether an invited household has given its place back, and how (the first of these counts; a
 * household gives its place back once): an offer declined or expired, a withdrawal, or a rejection
 * that became final (status 'closed': the appeal window passed or the appeal was denied).
 */
export function placeReleasedBy(view: { status: string; offers: readonly { status: string }[] }): PlaceRelease | null {
  if (view.offers.some((o) => o.status === 'declined')) return 'offer_declined';
  if (view.offers.some((o) => o.status === 'expired')) return 'offer_expired';
  if (view.status === 'withdrawn') return 'withdrawn';
  if (view.status === 'closed') return 'rejected';
  return null;
}
