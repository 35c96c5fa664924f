import type { ChangeContext } from './case';
import { addDays } from './calendar';
import type { TimelineStep } from './lease-up';
import { moveTo, unskip, type LeaseUpState } from './lease-up.state';
import type { MessageCode } from './messages';
import { HOUR } from './time';

/**
 * What the rows of the lease-up action table share (domain/lease-up.applicant.ts and
 * domain/lease-up.manager.ts): when an action is possible, and the changes more than one action makes.
 * Not exported from domain/index.ts: only the table reads them.
 */
/** Steps at which the household owes the next move (what a reminder is about). */
export const HOUSEHOLD_STEPS: readonly TimelineStep[] = ['additional_documents', 'screening_consent', 'appointment_scheduling', 'unit_offer', 'income_certification', 'lease_signing'];

export const active = (s: LeaseUpState) => s.status === 'in_review';
/** Null when the application is active at one of `steps`, else 'not available now'. */
export const at = (s: LeaseUpState, ...steps: TimelineStep[]): MessageCode | null => (active(s) && steps.includes(s.step) ? null : 'actionNotAllowedNow');
export const future = (iso: string, now: number) => Date.parse(iso) > now;
export const openOffers = (s: LeaseUpState, now: number) => s.offers.filter((o) => o.status === 'open' && future(o.expiresAt, now));
export const freeSlots = (s: LeaseUpState, now: number) => s.appointmentSlots.filter((slot) => future(slot, now) && slot !== s.appointmentAt);
export const ticSigned = (s: LeaseUpState, id: string) => s.tic?.signatures.some((g) => g.userId === id) ?? false;
export const allTicSigned = (s: LeaseUpState) => s.tic?.signers.every((g) => ticSigned(s, g.id)) ?? false;
/** Signing (or deciding on signatures) needs the TIC generated first. */
export const signing = (s: LeaseUpState): MessageCode | null => (s.tic ? null : 'ticNotGeneratedYet');

/** Rejection (of the application or of its income certification): the appeal window opens (workflows.md). */
export function reject(s: LeaseUpState, reason: string | undefined, ctx: ChangeContext): void {
  s.status = 'rejected';
  s.rejectionReason = reason ?? null;
  s.rejectedAtStep = s.step;
  s.rejections += 1;
  s.appealDeadline = addDays(ctx.now, s.settings.appealWindowDays);
  s.appealReason = null;
  ctx.timer('AppealWindowClosed', s.appealDeadline, `rej-${s.rejections}`);
}

/** Documents rejected or asked for: the household answers each one by the due date (reminder, then an overdue task). */
export function askForDocuments(s: LeaseUpState, items: LeaseUpState['outstanding'], note: string | null, dueAt: string | undefined, ctx: ChangeContext): void {
  s.outstanding = items;
  s.documentsNote = note;
  s.documentsDueAt = dueAt ?? addDays(ctx.now, s.settings.additionalDocumentsDays);
  s.documentsOverdue = false;
  s.documentRounds += 1;
  unskip(s, 'additional_documents');
  moveTo(s, 'additional_documents', ctx.now);
  ctx.timer('AdditionalDocumentsOverdue', s.documentsDueAt, `docs-${s.documentRounds}`);
}

/** Books an appointment, with reminders 1 day and 1 hour before (workflows.md); a moved appointment gets new ones. */
export function book(s: LeaseUpState, slot: string, ctx: ChangeContext): void {
  s.appointmentAt = slot;
  s.bookings += 1;
  for (const [event, hours] of [['AppointmentReminderDay', 24], ['AppointmentReminderHour', 1]] as const) {
    const remindAt = new Date(Date.parse(slot) - hours * HOUR).toISOString();
    if (Date.parse(remindAt) > Date.parse(ctx.now)) ctx.timer(event, remindAt, `appt-${s.bookings}`);
  }
}
