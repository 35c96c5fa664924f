import { z } from 'zod';
import { actionsNeedingReason, actionsOf, irreversibleActions, type ActionTable, type ChangeContext } from './case';
import { addBusinessDays, addDays } from './calendar';
import { LEASE_UP_INPUTS, type LeaseUpInputs, type TimelineStep } from './lease-up';
import { isFinalLeaseUp, moveTo, unskip, type LeaseUpState } from './lease-up.state';
import type { MessageCode } from './messages';

/** The side effects the lease-up workflow runs for an action (workflows/lease-up.ts implements them). */
export type LeaseUpEffect = 'generateTic' | 'generateLeaseLetter' | 'signTic' | 'signLeaseLetter' | 'markDocumentsRejected';

const active = (s: LeaseUpState) => s.status === 'in_review';
/** Steps at which the household owes the next move (what a reminder is about). */
const HOUSEHOLD_STEPS: readonly TimelineStep[] = ['additional_documents', 'screening_consent', 'appointment_scheduling', 'unit_offer', 'income_certification', 'lease_signing'];
/** Null when the application is active at one of `steps`, else 'not available now'. */
const at = (s: LeaseUpState, ...steps: TimelineStep[]): MessageCode | null => (active(s) && steps.includes(s.step) ? null : 'actionNotAllowedNow');
const future = (iso: string, now: number) => Date.parse(iso) > now;
const openOffers = (s: LeaseUpState, now: number) => s.offers.filter((o) => o.status === 'open' && future(o.expiresAt, now));
const freeSlots = (s: LeaseUpState, now: number) => s.appointmentSlots.filter((slot) => future(slot, now) && slot !== s.appointmentAt);
const ticSigned = (s: LeaseUpState, id: string) => s.tic?.signatures.some((g) => g.userId === id) ?? false;
const signing = (s: LeaseUpState): MessageCode | null => (s.tic ? null : 'ticNotGeneratedYet');

/** Rejection (of the application or of its income certification): the appeal window opens (workflows.md). */
function reject(s: LeaseUpState, reason: string | undefined, ctx: ChangeContext): void {
  s.status = 'rejected';
  s.rejectionReason = reason ?? null;
  s.rejectedAtStep = s.step;
  s.rejections += 1;
  s.appealDeadline = addDays(ctx.now, s.settings.appealWindowDays);
  s.appealReason = null;
  ctx.timer('AppealWindowClosed', s.appealDeadline, `rej-${s.rejections}`);
}

/** Documents rejected or asked for: the household answers each one by the due date (reminder, then an overdue task). */
function askForDocuments(s: LeaseUpState, items: LeaseUpState['outstanding'], note: string | null, dueAt: string | undefined, ctx: ChangeContext): void {
  s.outstanding = items;
  s.documentsNote = note;
  s.documentsDueAt = dueAt ?? addDays(ctx.now, s.settings.additionalDocumentsDays);
  s.documentsOverdue = false;
  s.documentRounds += 1;
  unskip(s, 'additional_documents');
  moveTo(s, 'additional_documents', ctx.now);
  ctx.timer('AdditionalDocumentsOverdue', s.documentsDueAt, `docs-${s.documentRounds}`);
}

function book(s: LeaseUpState, slot: string, ctx: ChangeContext): void {
  s.appointmentAt = slot;
  s.bookings += 1;
  // Reminders 1 day and 1 hour before (workflows.md); a moved appointment gets new ones.
  for (const [event, hours] of [['AppointmentReminderDay', 24], ['AppointmentReminderHour', 1]] as const) {
    const remindAt = new Date(Date.parse(slot) - hours * 3_600_000).toISOString();
    if (Date.parse(remindAt) > Date.parse(ctx.now)) ctx.timer(event, remindAt, `appt-${s.bookings}`);
  }
}

/**
 * The lease-up application, one row per action of spec section 4 with the rules of
 * shared/design/workflows.md "Lease-up application": who acts, when it is available, what it
 * changes, its side effect, the task it opens, whether it needs a reason and whether it is final.
 */
export const LEASE_UP_TABLE = {
  // --- The applicant household -------------------------------------------------------------
  SubmitProfile: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.SubmitProfile,
    when: (s) => at(s, 'documentation_review', 'additional_documents') ?? (s.profileSubmitted ? 'profileAlreadySubmitted' : null),
    change: (s) => {
      s.profileSubmitted = true;
    },
    task: {},
  },
  SubmitAdditionalDocuments: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.SubmitAdditionalDocuments,
    when: (s) => at(s, 'additional_documents'),
    check: (s, input) => {
      const answered = new Set(input.documents.filter((d) => d.documentId || d.reason).map((d) => d.item));
      return s.outstanding.every((d) => answered.has(d.item)) ? null : 'answerEveryDocument';
    },
    change: (s, _input, ctx) => {
      s.outstanding = [];
      s.documentsDueAt = null;
      s.documentsOverdue = false;
      moveTo(s, 'documentation_review', ctx.now);
    },
    task: { due: (s) => s.documentsDueAt, overdue: (s) => s.documentsOverdue },
  },
  ProvideConsentForScreening: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.ProvideConsentForScreening,
    when: (s) => at(s, 'screening_consent'),
    change: (s, _input, ctx) => {
      s.consent = 'given';
      moveTo(s, 'decision', ctx.now);
    },
    task: {},
  },
  DenyConsentForScreening: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.DenyConsentForScreening,
    when: (s) => at(s, 'screening_consent'),
    change: (s, _input, ctx) => {
      s.consent = 'denied';
      moveTo(s, 'decision', ctx.now);
    },
    task: {},
  },
  ScheduleAppointment: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.ScheduleAppointment,
    when: (s, now) => at(s, 'appointment_scheduling') ?? (freeSlots(s, now).length > 0 ? null : 'slotUnavailable'),
    check: (s, input, now) => (s.appointmentSlots.includes(input.slot) && future(input.slot, now) ? null : 'slotUnavailable'),
    change: (s, input, ctx) => {
      moveTo(s, 'screening', ctx.now);
      book(s, input.slot, ctx);
    },
    task: {},
  },
  RescheduleAppointment: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.RescheduleAppointment,
    when: (s, now) => {
      if (at(s, 'screening') || !s.appointmentAt) return 'actionNotAllowedNow';
      if (!future(s.appointmentAt, now)) return 'appointmentPassed';
      return freeSlots(s, now).length > 0 ? null : 'slotUnavailable';
    },
    check: (s, input, now) => (freeSlots(s, now).includes(input.slot) ? null : 'slotUnavailable'),
    change: (s, input, ctx) => book(s, input.slot, ctx),
  },
  RespondToUnitOffer: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.RespondToUnitOffer,
    when: (s, now) => {
      if (!active(s)) return 'actionNotAllowedNow';
      if (s.offers.length === 0) return 'unitsNotOfferedYet';
      if (s.step !== 'unit_offer') return 'actionNotAllowedNow';
      return openOffers(s, now).length > 0 ? null : 'offerNotOpen';
    },
    check: (s, input, now) => (openOffers(s, now).some((o) => o.offerId === input.offerId) ? null : 'offerNotOpen'),
    change: (s, input, ctx) => {
      for (const offer of s.offers) {
        if (offer.offerId === input.offerId) {
          offer.status = input.accept ? 'accepted' : 'declined';
          offer.respondedAt = ctx.now;
        } else if (input.accept && offer.status === 'open') {
          // Accepting hides every other offer (spec section 4).
          offer.status = 'superseded';
        }
      }
    },
    task: { due: (s) => s.offers.filter((o) => o.status === 'open').map((o) => o.expiresAt).sort()[0] ?? null },
    irreversible: true,
  },
  SignTIC: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.SignTIC,
    when: (s) => at(s, 'income_certification') ?? signing(s) ?? (s.tic?.signers.every((g) => ticSigned(s, g.id)) ? 'alreadySigned' : null),
    check: (s, input) => {
      if (input.actor.impersonatedBy) return 'signingWhileImpersonating';
      if (!input.signature) return 'signatureRequired';
      const signerId = input.signature.signerId ?? input.actor.userId;
      if (!s.tic?.signers.some((g) => g.id === signerId)) return 'notASigner';
      return ticSigned(s, signerId) ? 'alreadySigned' : null;
    },
    // The signed copy is recorded by the effect once the signature is stamped on the letter.
    change: () => {},
    effect: 'signTic',
    task: {},
  },
  SignLeaseLetter: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.SignLeaseLetter,
    when: (s) => {
      if (at(s, 'lease_signing')) return active(s) && !s.leaseLetter ? 'leaseLetterNotGeneratedYet' : 'actionNotAllowedNow';
      if (!s.leaseLetter) return 'leaseLetterNotGeneratedYet';
      return s.leaseLetter.signatures.some((g) => g.userId === s.input.applicantUserId) ? 'alreadySigned' : null;
    },
    check: (s, input) => {
      if (input.actor.impersonatedBy) return 'signingWhileImpersonating';
      if (!input.signature) return 'signatureRequired';
      return s.leaseLetter?.signatures.some((g) => g.userId === input.actor.userId) ? 'alreadySigned' : null;
    },
    change: () => {},
    effect: 'signLeaseLetter',
    task: {},
  },
  Appeal: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.Appeal,
    when: (s, now) => {
      if (s.status !== 'rejected') return 'actionNotAllowedNow';
      if (s.appealDeadline && now >= Date.parse(s.appealDeadline)) return 'appealPeriodPassed';
      return s.profileSubmitted ? null : 'profileNotSubmitted';
    },
    change: (s, input, ctx) => {
      s.status = 'appeal_submitted';
      s.appealReason = input.reason ?? null;
      s.appeals += 1;
      s.appealDecisionDueAt = addBusinessDays(ctx.now, s.settings.appealDecisionBusinessDays);
      s.appealEscalated = false;
      ctx.timer('AppealDecisionOverdue', s.appealDecisionDueAt, `appeal-${s.appeals}`);
    },
    task: { due: (s) => s.appealDeadline },
    reason: true,
  },
  UpdateInfo: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.UpdateInfo,
    // Any time before the application is final; no step change (workflows.md).
    when: () => null,
    change: (s, input) => {
      s.householdSize = input.householdSize;
      s.householdIncome = input.householdIncome;
    },
  },
  Withdraw: {
    by: 'applicant',
    input: LEASE_UP_INPUTS.Withdraw,
    when: (s) => (s.status === 'in_review' || s.status === 'appeal_submitted' ? null : 'actionNotAllowedNow'),
    change: (s) => {
      s.status = 'withdrawn';
      for (const offer of s.offers) if (offer.status === 'open') offer.status = 'superseded';
    },
    irreversible: true,
  },

  // --- The organisation's manager ----------------------------------------------------------
  MarkAsComplete: {
    by: 'manager',
    input: LEASE_UP_INPUTS.MarkAsComplete,
    when: (s) => at(s, 'documentation_review') ?? (!s.profileSubmitted ? 'profileNotSubmitted' : s.outstanding.length > 0 ? 'answerEveryDocument' : null),
    change: (s, _input, ctx) => moveTo(s, 'decision', ctx.now),
    task: {},
  },
  RequestConsentForScreening: {
    by: 'manager',
    input: LEASE_UP_INPUTS.RequestConsentForScreening,
    when: (s) => at(s, 'documentation_review'),
    change: (s, _input, ctx) => {
      s.consent = 'requested';
      unskip(s, 'screening_consent');
      moveTo(s, 'screening_consent', ctx.now);
    },
    task: {},
  },
  RejectApplication: {
    by: 'manager',
    input: LEASE_UP_INPUTS.RejectApplication,
    when: (s) => at(s, 'decision', 'screening', 'income_certification'),
    change: (s, input, ctx) => reject(s, input.reason, ctx),
    reason: true,
    irreversible: true,
  },
  RejectDocuments: {
    by: 'manager',
    input: LEASE_UP_INPUTS.RejectDocuments,
    when: (s) => at(s, 'documentation_review'),
    check: (_s, input) => (input.documents.length > 0 ? null : 'documentsRequired'),
    change: (s, input, ctx) =>
      askForDocuments(s, input.documents.map((d) => ({ ...d, kind: 'rejected' as const })), input.reason ?? null, undefined, ctx),
    // The household's documents named by id are marked rejected with the reason (My Documents).
    effect: 'markDocumentsRejected',
  },
  RequestAdditionalDocuments: {
    by: 'manager',
    input: LEASE_UP_INPUTS.RequestAdditionalDocuments,
    when: (s) => at(s, 'documentation_review'),
    check: (_s, input, now) => {
      if (input.documentTypes.length === 0) return 'documentsRequired';
      return input.dueAt && !future(input.dueAt, now) ? 'actionNotAllowedNow' : null;
    },
    change: (s, input, ctx) =>
      askForDocuments(s, input.documentTypes.map((item) => ({ item, kind: 'requested' as const })), input.note ?? input.reason ?? null, input.dueAt, ctx),
  },
  ProceedToAppointmentScheduling: {
    by: 'manager',
    input: LEASE_UP_INPUTS.ProceedToAppointmentScheduling,
    when: (s) => at(s, 'decision'),
    check: (_s, input, now) => (input.slots.some((slot) => future(slot, now)) ? null : 'slotsRequired'),
    change: (s, input, ctx) => {
      s.appointmentSlots = input.slots.filter((slot) => Date.parse(slot) > Date.parse(ctx.now)).sort();
      moveTo(s, 'appointment_scheduling', ctx.now);
    },
    task: {},
  },
  OfferUnit: {
    by: 'manager',
    input: LEASE_UP_INPUTS.OfferUnit,
    when: (s) => {
      if (at(s, 'screening', 'unit_offer') || !s.appointmentAt) return 'actionNotAllowedNow';
      return s.offers.some((o) => o.status === 'accepted') ? 'offerAlreadyAccepted' : null;
    },
    check: (s, input, now) => {
      if (input.units.length === 0) return 'unitsRequired';
      const live = new Set(s.offers.filter((o) => o.status === 'open').map((o) => o.unitId));
      if (input.units.some((u) => live.has(u.unitId))) return 'unitUnavailable';
      return input.expiresAt && !future(input.expiresAt, now) ? 'actionNotAllowedNow' : null;
    },
    change: (s, input, ctx) => {
      for (const unit of input.units) {
        const offerId = `offer-${s.offers.length + 1}`;
        const expiresAt = input.expiresAt ?? addDays(ctx.now, s.settings.offerExpiryDays);
        s.offers.push({ ...unit, offerId, offeredAt: ctx.now, expiresAt, status: 'open', respondedAt: null });
        ctx.timer('UnitOfferExpired', expiresAt, offerId);
      }
      moveTo(s, 'unit_offer', ctx.now);
    },
    // While an offer is open a further offer is possible but not owed.
    task: { when: (s) => !(s.step === 'unit_offer' && s.offers.some((o) => o.status === 'open')) },
  },
  ProceedWithUnitOffer: {
    by: 'manager',
    input: LEASE_UP_INPUTS.ProceedWithUnitOffer,
    when: (s) => {
      if (active(s) && s.offers.length === 0 && (s.step === 'screening' || s.step === 'unit_offer')) return 'unitsNotOfferedYet';
      return at(s, 'unit_offer') ?? (s.offers.some((o) => o.status === 'accepted') ? null : 'offerNotAccepted');
    },
    change: (s, _input, ctx) => moveTo(s, 'income_certification', ctx.now),
    task: {},
  },
  GenerateIncomeCertification: {
    by: 'manager',
    input: LEASE_UP_INPUTS.GenerateIncomeCertification,
    when: (s) => at(s, 'income_certification') ?? (s.tic && s.tic.signatures.length > 0 ? 'alreadySigned' : null),
    // The letter and its signers are recorded by the effect once the PDF is stored.
    change: () => {},
    effect: 'generateTic',
    task: {},
  },
  ApproveIncomeCertification: {
    by: 'manager',
    input: LEASE_UP_INPUTS.ApproveIncomeCertification,
    when: (s) => at(s, 'income_certification') ?? signing(s) ?? (s.tic?.signers.every((g) => ticSigned(s, g.id)) ? null : 'ticNotSigned'),
    change: (s, _input, ctx) => moveTo(s, 'lease_signing', ctx.now),
    effect: 'generateLeaseLetter',
    task: {},
  },
  DenyIncomeCertification: {
    by: 'manager',
    input: LEASE_UP_INPUTS.DenyIncomeCertification,
    when: (s) => at(s, 'income_certification') ?? signing(s) ?? (s.tic?.signers.every((g) => ticSigned(s, g.id)) ? null : 'ticNotSigned'),
    change: (s, input, ctx) => reject(s, input.reason, ctx),
    reason: true,
    irreversible: true,
  },
  CompleteLeaseSigning: {
    by: 'manager',
    input: LEASE_UP_INPUTS.CompleteLeaseSigning,
    when: (s) => {
      if (at(s, 'lease_signing')) return 'actionNotAllowedNow';
      if (!s.leaseLetter) return 'leaseLetterNotGeneratedYet';
      return s.leaseLetter.signatures.length > 0 ? null : 'leaseNotSigned';
    },
    change: (s, _input, ctx) => {
      moveTo(s, 'end', ctx.now);
      s.status = 'ended';
    },
    task: {},
  },
  GrantAppeal: {
    by: 'manager',
    input: LEASE_UP_INPUTS.GrantAppeal,
    when: (s) => (s.status === 'appeal_submitted' ? null : 'actionNotAllowedNow'),
    // Back to review at the step where it was rejected.
    change: (s) => {
      s.status = 'in_review';
      s.rejectionReason = null;
      s.appealDecisionDueAt = null;
      s.appealEscalated = false;
    },
    task: { due: (s) => s.appealDecisionDueAt, overdue: (s) => s.appealEscalated },
  },
  DenyAppeal: {
    by: 'manager',
    input: LEASE_UP_INPUTS.DenyAppeal,
    when: (s) => (s.status === 'appeal_submitted' ? null : 'actionNotAllowedNow'),
    change: (s) => {
      s.status = 'closed';
    },
    reason: true,
    irreversible: true,
  },
  SendReminder: {
    by: 'manager',
    input: LEASE_UP_INPUTS.SendReminder,
    // Only while the next move is the household's (documents, consent, a booking, an offer, signatures).
    when: (s) => (active(s) && HOUSEHOLD_STEPS.includes(s.step) ? null : 'nothingToRemind'),
    change: (s, input, ctx) => {
      s.reminders = (s.reminders ?? 0) + 1;
      ctx.notify({
        userId: s.input.applicantUserId,
        template: 'lease-up-reminder',
        params: { applicationId: s.input.applicationId, step: s.step, ...(input.note ? { note: input.note } : {}) },
        dedupeKey: `lease-up:${s.input.applicationId}:reminder-${s.reminders}`,
      });
    },
  },
} satisfies ActionTable<LeaseUpState, LeaseUpInputs, 'applicant' | 'manager', LeaseUpEffect>;

type Table = typeof LEASE_UP_TABLE;
export type ApplicantAction = { [A in keyof Table]: Table[A]['by'] extends 'applicant' ? A : never }[keyof Table];
export type ManagerAction = { [A in keyof Table]: Table[A]['by'] extends 'manager' ? A : never }[keyof Table];

export const LEASE_UP_ACTIONS = actionsOf(LEASE_UP_TABLE);
export const APPLICANT_ACTIONS = LEASE_UP_ACTIONS.filter((a): a is ApplicantAction => LEASE_UP_TABLE[a].by === 'applicant');
export const MANAGER_ACTIONS = LEASE_UP_ACTIONS.filter((a): a is ManagerAction => LEASE_UP_TABLE[a].by === 'manager');
export const LeaseUpActionName = z.enum(LEASE_UP_ACTIONS as [keyof Table, ...(keyof Table)[]]);
export const ManagerActionName = z.enum(MANAGER_ACTIONS as [ManagerAction, ...ManagerAction[]]);
/** Actions a person must confirm because they cannot be undone (spec section 4). */
export const IRREVERSIBLE_ACTIONS = irreversibleActions(LEASE_UP_TABLE);
/** Actions that need a reason ('Please provide a reason.'). */
export const ACTIONS_NEEDING_REASON = actionsNeedingReason(LEASE_UP_TABLE);

/**
 * Any action on a finished application: the workflow has ended (or is ending) and takes no more
 * changes; an appeal after the window closed is "appeal period passed", anything else "closed".
 */
export function leaseUpFinished(s: Pick<LeaseUpState, 'status' | 'appealDeadline' | 'appealReason'>, action?: string): MessageCode | null {
  if (!isFinalLeaseUp(s)) return null;
  if (action === 'Appeal' && s.status === 'closed' && s.appealDeadline && !s.appealReason) return 'appealPeriodPassed';
  return 'applicationClosed';
}
