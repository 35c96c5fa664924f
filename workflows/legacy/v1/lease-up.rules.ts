import type { ActionInput, LeaseUpAction, LeaseUpView, LetterState, MessageCode, TimelineStep } from './domain';

/** The facts the rules read: the view without what is derived from the rules themselves. */
export type RuleView = Omit<LeaseUpView, 'availableActions' | 'pendingTasks' | 'timeline' | 'history'>;

/**
 * The "allowed when" column of shared/design/workflows.md (lease-up tables), as one pure function
 * of the current view, the action's input and the (workflow) time. Null means allowed.
 * Role and final-status checks are done by the caller (LeaseUpState.refusal).
 */
export function ruleRefusal(v: RuleView, action: LeaseUpAction, input: ActionInput, now: number): MessageCode | null {
  const active = v.status === 'in_review';
  const at = (...steps: TimelineStep[]) => active && steps.includes(v.currentStep);
  const future = (iso: string) => Date.parse(iso) > now;
  switch (action) {
    case 'SubmitProfile':
      if (!at('documentation_review', 'additional_documents')) return 'actionNotAllowedNow';
      return v.profileSubmitted ? 'profileAlreadySubmitted' : null;
    case 'MarkAsComplete':
      if (!at('documentation_review')) return 'actionNotAllowedNow';
      if (!v.profileSubmitted) return 'profileNotSubmitted';
      return v.outstandingDocuments.length > 0 ? 'answerEveryDocument' : null;
    case 'RequestConsentForScreening':
      return at('documentation_review') ? null : 'actionNotAllowedNow';
    case 'RejectDocuments':
      if (!at('documentation_review')) return 'actionNotAllowedNow';
      return input.documents?.length ? null : 'documentsRequired';
    case 'RequestAdditionalDocuments':
      if (!at('documentation_review')) return 'actionNotAllowedNow';
      if (!input.documentTypes?.length) return 'documentsRequired';
      return input.dueAt && !future(input.dueAt) ? 'actionNotAllowedNow' : null;
    case 'SubmitAdditionalDocuments': {
      if (!at('additional_documents')) return 'actionNotAllowedNow';
      const answered = new Set((input.documents ?? []).filter((d) => d.documentId || d.reason).map((d) => d.item));
      return v.outstandingDocuments.every((d) => answered.has(d.item)) ? null : 'answerEveryDocument';
    }
    case 'ProvideConsentForScreening':
    case 'DenyConsentForScreening':
      return at('screening_consent') ? null : 'actionNotAllowedNow';
    case 'ProceedToAppointmentScheduling':
      if (!at('decision')) return 'actionNotAllowedNow';
      return (input.slots ?? []).some(future) ? null : 'slotsRequired';
    case 'ScheduleAppointment':
      if (!at('appointment_scheduling')) return 'actionNotAllowedNow';
      return input.slot && v.appointmentSlots.includes(input.slot) && future(input.slot) ? null : 'slotUnavailable';
    case 'RescheduleAppointment':
      if (!at('screening') || !v.appointmentAt) return 'actionNotAllowedNow';
      if (!future(v.appointmentAt)) return 'appointmentPassed';
      return input.slot && input.slot !== v.appointmentAt && v.appointmentSlots.includes(input.slot) && future(input.slot)
        ? null
        : 'slotUnavailable';
    case 'OfferUnit': {
      if (!at('screening', 'unit_offer') || !v.appointmentAt) return 'actionNotAllowedNow';
      if (v.offers.some((o) => o.status === 'accepted')) return 'offerAlreadyAccepted';
      if (!input.units?.length) return 'unitsRequired';
      const live = new Set(v.offers.filter((o) => o.status === 'open').map((o) => o.unitId));
      if (input.units.some((u) => live.has(u.unitId))) return 'unitUnavailable';
      return input.expiresAt && !future(input.expiresAt) ? 'actionNotAllowedNow' : null;
    }
    case 'RespondToUnitOffer': {
      if (!active) return 'actionNotAllowedNow';
      if (v.offers.length === 0) return 'unitsNotOfferedYet';
      if (v.currentStep !== 'unit_offer') return 'actionNotAllowedNow';
      const offer = v.offers.find((o) => o.offerId === input.offerId);
      // A probe without an offer id asks "may the applicant respond to some offer now?".
      if (input.offerId === undefined) return v.offers.some((o) => o.status === 'open') ? null : 'offerNotOpen';
      if (!offer || offer.status !== 'open' || !future(offer.expiresAt)) return 'offerNotOpen';
      return input.accept === undefined ? 'actionNotAllowedNow' : null;
    }
    case 'ProceedWithUnitOffer':
      if (active && v.offers.length === 0 && ['screening', 'unit_offer'].includes(v.currentStep)) return 'unitsNotOfferedYet';
      if (!at('unit_offer')) return 'actionNotAllowedNow';
      return v.offers.some((o) => o.status === 'accepted') ? null : 'offerNotAccepted';
    case 'GenerateIncomeCertification':
      if (!at('income_certification')) return 'actionNotAllowedNow';
      return v.tic && v.tic.signatures.length > 0 ? 'alreadySigned' : null;
    case 'SignTIC':
      if (!at('income_certification')) return 'actionNotAllowedNow';
      if (!v.tic) return 'ticNotGeneratedYet';
      if (input.actor.impersonatedBy) return 'signingWhileImpersonating';
      return ticSignerRefusal(v.tic, input);
    case 'ApproveIncomeCertification':
    case 'DenyIncomeCertification':
      if (!at('income_certification')) return 'actionNotAllowedNow';
      if (!v.tic) return 'ticNotGeneratedYet';
      // The head of household and each adult member sign (workflows.md); older runs needed one.
      if (v.tic.signers) return v.tic.signers.every((s) => v.tic!.signatures.some((g) => g.userId === s.id)) ? null : 'ticNotSigned';
      return v.tic.signatures.length > 0 ? null : 'ticNotSigned';
    case 'SignLeaseLetter':
      if (!at('lease_signing')) return active && !v.leaseLetter ? 'leaseLetterNotGeneratedYet' : 'actionNotAllowedNow';
      if (!v.leaseLetter) return 'leaseLetterNotGeneratedYet';
      if (input.actor.impersonatedBy) return 'signingWhileImpersonating';
      return v.leaseLetter.signatures.some((s) => s.userId === input.actor.userId) ? 'alreadySigned' : null;
    case 'CompleteLeaseSigning':
      if (!at('lease_signing')) return 'actionNotAllowedNow';
      if (!v.leaseLetter) return 'leaseLetterNotGeneratedYet';
      return v.leaseLetter.signatures.length > 0 ? null : 'leaseNotSigned';
    case 'RejectApplication':
      return at('decision', 'screening', 'income_certification') ? null : 'actionNotAllowedNow';
    case 'Appeal':
      if (v.status !== 'rejected') return 'actionNotAllowedNow';
      if (v.appealDeadline && now >= Date.parse(v.appealDeadline)) return 'appealPeriodPassed';
      return v.profileSubmitted ? null : 'profileNotSubmitted';
    case 'GrantAppeal':
    case 'DenyAppeal':
      return v.status === 'appeal_submitted' ? null : 'actionNotAllowedNow';
    case 'Withdraw':
      return v.status === 'in_review' || v.status === 'appeal_submitted' ? null : 'actionNotAllowedNow';
    case 'UpdateInfo':
      // Any time before the application is final (the caller refuses final ones); no step change.
      return null;
  }
}

/**
 * The answer for an action sent to an application whose workflow has finished (it takes no more
 * Updates): an appeal after the window closed is "appeal period passed", anything else "closed".
 */
export function finishedRefusal(v: Pick<LeaseUpView, 'status' | 'appealDeadline' | 'appealReason'>, action: LeaseUpAction): MessageCode {
  if (action === 'Appeal' && v.status === 'closed' && v.appealDeadline && !v.appealReason) return 'appealPeriodPassed';
  return 'applicationClosed';
}

/** `n` business days (Monday to Friday) after `iso`, same time of day. */
export function addBusinessDays(iso: string, n: number): string {
  const d = new Date(iso);
  let left = n;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) left -= 1;
  }
  return d.toISOString();
}

export function addDays(iso: string, n: number): string {
  return new Date(Date.parse(iso) + n * 86_400_000).toISOString();
}

/**
 * Who may sign the TIC now. A signature names its signer (the head by default); without one (the
 * "is it available?" probe) the action stays open while any required signer has not signed.
 */
function ticSignerRefusal(tic: LetterState, input: ActionInput): MessageCode | null {
  const signed = (id: string) => tic.signatures.some((s) => s.userId === id);
  const signerId = input.signature ? (input.signature.signerId ?? input.actor.userId) : null;
  if (!tic.signers) return signed(signerId ?? input.actor.userId) ? 'alreadySigned' : null;
  if (signerId === null) return tic.signers.every((s) => signed(s.id)) ? 'alreadySigned' : null;
  if (!tic.signers.some((s) => s.id === signerId)) return 'notASigner';
  return signed(signerId) ? 'alreadySigned' : null;
}
