import type { ActionTable } from './case';
import { addDays } from './calendar';
import { LEASE_UP_INPUTS, type LeaseUpInputs, type ManagerAction } from './lease-up.inputs';
import type { ActorRole, LeaseUpEffect } from './lease-up';
import { moveTo, unskip, type LeaseUpState } from './lease-up.state';
import { HOUSEHOLD_STEPS, active, allTicSigned, askForDocuments, at, future, reject, signing } from './lease-up.rules';

/**
 * The organisation manager's rows of the lease-up action table (spec section 4, with the rules of
 * shared/design/workflows.md "Lease-up application"), read as the applicant's rows are.
 */
export const MANAGER_ROWS = {
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
      ctx.notify({ userId: s.input.applicantUserId, template: 'lease-up-offer-made', params: { applicationId: s.input.applicationId }, dedupeKey: `lease-up:${s.input.applicationId}:offer-made-${s.offers.length}` });
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
    when: (s) => at(s, 'income_certification') ?? signing(s) ?? (allTicSigned(s) ? null : 'ticNotSigned'),
    change: (s, _input, ctx) => moveTo(s, 'lease_signing', ctx.now),
    effect: 'generateLeaseLetter',
    task: {},
  },
  DenyIncomeCertification: {
    by: 'manager',
    input: LEASE_UP_INPUTS.DenyIncomeCertification,
    when: (s) => at(s, 'income_certification') ?? signing(s) ?? (allTicSigned(s) ? null : 'ticNotSigned'),
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
    change: (s, _input, ctx) => {
      s.status = 'in_review';
      s.rejectionReason = null;
      s.appealDecisionDueAt = null;
      s.appealEscalated = false;
      ctx.notify({ userId: s.input.applicantUserId, template: 'lease-up-appeal-granted', params: { applicationId: s.input.applicationId }, dedupeKey: `lease-up:${s.input.applicationId}:appeal-${s.appeals}-decided` });
    },
    task: { due: (s) => s.appealDecisionDueAt, overdue: (s) => s.appealEscalated },
  },
  DenyAppeal: {
    by: 'manager',
    input: LEASE_UP_INPUTS.DenyAppeal,
    when: (s) => (s.status === 'appeal_submitted' ? null : 'actionNotAllowedNow'),
    change: (s, _input, ctx) => {
      s.status = 'closed';
      ctx.notify({ userId: s.input.applicantUserId, template: 'lease-up-appeal-denied', params: { applicationId: s.input.applicationId }, dedupeKey: `lease-up:${s.input.applicationId}:appeal-${s.appeals}-decided` });
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
} satisfies ActionTable<LeaseUpState, Pick<LeaseUpInputs, ManagerAction>, ActorRole, LeaseUpEffect> & Record<ManagerAction, { by: 'manager' }>;
