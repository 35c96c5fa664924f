import { z } from 'zod';
import { idOf } from './ids';
import { INVITATION_REASONS, PASS_OVER_REASONS, type InvitationReason, type PassOverReason } from './waitlist';

/**
 * A lottery's invitation log: one line per invitation and per pass-over, in the order they
 * happened, naming the household only by its public log number and rank. Anyone can check it
 * against the published ranks (`npm run lottery:verify`): every household invited had each
 * higher-ranked household invited before it, or passed over with a public reason.
 *
 * The lines are chained, precisely enough to reimplement:
 *  - a line's canonical text is the JSON array `[seq, logNumber, rank, event, reason, unitSizes, at]`
 *    (JSON.stringify, no spaces; `at` an ISO 8601 UTC time with milliseconds; `unitSizes` the bedroom
 *    types concerned, in the order recorded, or `[]`);
 *  - its hash is SHA-256 (lowercase hex) of the UTF-8 text `previous + '\n' + canonicalText`, where
 *    `previous` is the hash of the line before, or for line 1 the draw's published result hash;
 *  - the hash of the last line is published on the lottery as the log's head, with the number of lines.
 */
export const INVITATION_LOG_EVENTS = ['invited', 'passed_over'] as const;
export type InvitationLogEvent = (typeof INVITATION_LOG_EVENTS)[number];
export type InvitationLogReason = InvitationReason | PassOverReason;

export interface InvitationLogLine {
  seq: number;
  logNumber: string;
  rank: number;
  event: InvitationLogEvent;
  reason: InvitationLogReason;
  /** The bedroom types a pass-over was about (unit sizes declined, or none fitting); otherwise empty. */
  unitSizes: string[];
  at: string;
  hash: string;
}

export function invitationLogText(line: Omit<InvitationLogLine, 'hash'>): string {
  return JSON.stringify([line.seq, line.logNumber, line.rank, line.event, line.reason, line.unitSizes, line.at]);
}

/** The text each line's hash is taken over: the previous hash, a newline, the line's canonical text. */
export function invitationLogHashInput(previous: string, line: Omit<InvitationLogLine, 'hash'>): string {
  return `${previous}\n${invitationLogText(line)}`;
}

const isInvitationReason = (r: string): r is InvitationReason => (INVITATION_REASONS as readonly string[]).includes(r);
const isPassOverReason = (r: string): r is PassOverReason => (PASS_OVER_REASONS as readonly string[]).includes(r);
/** Whether a reason code fits the event it is recorded with. */
export const reasonFitsEvent = (event: string, reason: string): boolean => (event === 'invited' ? isInvitationReason(reason) : event === 'passed_over' && isPassOverReason(reason));

/**
 * The public reason of an invitation, from the lottery's own reason for it (domain/lottery.table.ts:
 * `manager …` for invitations asked for, `<why> <log number>` after a released place, `reopened …`).
 */
export function invitationReasonOf(because: string | undefined): InvitationReason {
  if (!because) return 'in_rank_order';
  if (because.startsWith('reopened')) return 'unit_reopened';
  if (/^(withdrawn|offer_declined|offer_expired|rejected)\b/.test(because)) return 'next_after_release';
  return 'in_rank_order';
}

export const INVITATION_LOG_PAGE_MAX = 100;

export const InvitationLogParams = z.object({ opportunityId: idOf('Invalid opportunity id') });
export const InvitationLogQuery = z.object({
  /** Cursor: the last log line (seq) of the previous page. */
  after: z.coerce.number({ error: 'Invalid cursor' }).int('Invalid cursor').min(0, 'Invalid cursor').max(100_000_000, 'Invalid cursor').optional(),
  limit: z.coerce.number({ error: 'Invalid page size' }).int('Invalid page size').min(1, 'Invalid page size').max(INVITATION_LOG_PAGE_MAX, `At most ${INVITATION_LOG_PAGE_MAX} per page`).default(50),
});
export type InvitationLogQuery = z.infer<typeof InvitationLogQuery>;

export interface InvitationLogPage {
  /** The hash the chain starts from (the draw's result hash), the published head and the number of lines. */
  genesis: string;
  head: string | null;
  length: number;
  items: InvitationLogLine[];
  /** Pass as `after` for the next page; null on the last one. */
  nextAfter: number | null;
}
