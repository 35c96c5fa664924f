import type { ActionTable } from './case';
import { addBusinessDays } from './calendar';
import { LEASE_UP_INPUTS, type ApplicantAction, type LeaseUpInputs } from './lease-up.inputs';
import type { ActorRole, LeaseUpEffect } from './lease-up';
import { moveTo, type LeaseUpState } from './lease-up.state';
import { active, allTicSigned, at, book, freeSlots, future, openOffers, signing, ticSigned } from './lease-up.rules';

/**
 * The applicant household's rows of the lease-up action table (spec section 4, with the rules of
 * shared/design/workflows.md "Lease-up application"): who acts, when it is available, what it
 * changes, its side effect, the task it opens, whether it needs a reason and whether it is final.
 */
export const APPLICANT_ROWS = {
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
    when: (s) => at(s, 'income_certification') ?? signing(s) ?? (allTicSigned(s) ? 'alreadySigned' : null),
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
} satisfies ActionTable<LeaseUpState, Pick<LeaseUpInputs, ApplicantAction>, ActorRole, LeaseUpEffect> & Record<ApplicantAction, { by: 'applicant' }>;
