/**
 * A lottery's waitlist over the months or years between its draw and a unit: ranked households not
 * invited yet are asked every few months whether they still want their place. One that does not
 * answer becomes inactive (it is passed over, keeping its rank) and can restore its place for a
 * while; after that it is removed. A household can also decline the unit sizes it cannot use.
 */
export const WAITLIST_STATES = ['active', 'inactive', 'removed'] as const;
export type WaitlistState = (typeof WAITLIST_STATES)[number];

/** How often each household is asked, unless the opportunity sets its own (months). */
export const DEFAULT_CHECK_IN_MONTHS = 6;
export const MIN_CHECK_IN_MONTHS = 1;
export const MAX_CHECK_IN_MONTHS = 24;
/** Days after a check-in is asked when a reminder goes. */
export const CHECK_IN_REMINDER_DAYS = 14;
/** Days after a check-in is asked when a household that did not answer becomes inactive. */
export const CHECK_IN_ANSWER_DAYS = 30;
/** Days after becoming inactive when a household can still restore its place; then it is removed. */
export const RESTORE_PLACE_DAYS = 30;

/**
 * The public reason codes of the invitation log: why a household was invited, or why it was passed
 * over for a lower-ranked one. The public results page and `npm run lottery:verify` read them; they
 * name no household.
 */
export const INVITATION_REASONS = ['in_rank_order', 'next_after_release', 'unit_reopened'] as const;
export type InvitationReason = (typeof INVITATION_REASONS)[number];

export const PASS_OVER_REASONS = [
  'withdrawn',
  'inactive',
  'removed',
  'unit_size_declined',
  'household_does_not_fit',
  'over_income',
  'set_aside_filled',
  'no_answer',
] as const;
export type PassOverReason = (typeof PASS_OVER_REASONS)[number];
