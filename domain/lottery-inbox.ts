import { invitationReason, type PlaceRelease } from './lottery';

/**
 * The manager's inbox entry of a household invited next in line: why it was
 * invited, named by how the household before gave its place back. Like the overdue-documents
 * follow-up it has no action of its own; it stays on the case while its documentation review has
 * not moved on, so the manager sees the invitation and its cause together in the inbox.
 */
export const NEXT_IN_LINE_TASKS = {
  offer_declined: 'NextInLineAfterOfferDeclined',
  offer_expired: 'NextInLineAfterOfferExpired',
  withdrawn: 'NextInLineAfterWithdrawal',
  rejected: 'NextInLineAfterRejection',
} as const satisfies Record<PlaceRelease, string>;
export type NextInLineTask = (typeof NEXT_IN_LINE_TASKS)[PlaceRelease];

/** The inbox entry a case invited next in line shows now, or null (not invited for a released place, or past its first review). */
export function nextInLineTask(s: {
  input: { lottery?: { because: string } };
  status: string;
  step: string;
}): { role: 'manager'; action: NextInLineTask; dueAt: null } | null {
  const reason = s.input.lottery ? invitationReason(s.input.lottery.because) : null;
  if (!reason || s.status !== 'in_review' || s.step !== 'documentation_review') return null;
  return { role: 'manager', action: NEXT_IN_LINE_TASKS[reason.release], dueAt: null };
}
