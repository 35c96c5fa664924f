import { describe, expect, it } from 'vitest';
import {
  ACTIONS_NEEDING_REASON,
  IRREVERSIBLE_ACTIONS,
  LEASE_UP_ACTIONS,
  LEASE_UP_TABLE,
  initialLeaseUpState,
  leaseUpAvailable,
  leaseUpView,
  refusalOf,
  leaseUpFinished,
  type LeaseUpAction,
  type LeaseUpState,
  type MessageCode,
} from '../../domain';

/**
 * The lease-up action table without Temporal: each action's "allowed when" (a pure function of the
 * facts and the time) in a state where it is available and in states where it is refused, with the
 * spec's message. The time-skipping tests cover the timers; these cover every row.
 */
const NOW = Date.parse('2026-11-18T15:00:00.000Z');
const iso = (hoursFromNow: number) => new Date(NOW + hoursFromNow * 3_600_000).toISOString();
const HEAD = '10000000-0000-4000-8000-000000000001';
const MEMBER = '10000000-0000-4000-8000-000000000002';

function state(patch: Partial<LeaseUpState> = {}): LeaseUpState {
  const s = initialLeaseUpState(
    {
      applicationId: '20000000-0000-4000-8000-000000000001',
      householdId: '30000000-0000-4000-8000-000000000001',
      opportunityId: '40000000-0000-4000-8000-000000000001',
      organizationId: '50000000-0000-4000-8000-000000000001',
      applicantUserId: HEAD,
      householdSize: 2,
      householdIncome: 40_000,
    },
    iso(-48),
  );
  return Object.assign(s, patch);
}

const offer = (status: 'open' | 'accepted' | 'declined', expiresIn = 48) => ({
  unitId: '60000000-0000-4000-8000-000000000001',
  unitNumber: '4B',
  bedroomType: '2 bedrooms',
  address: '1 Main St',
  offerId: 'offer-1',
  offeredAt: iso(-1),
  expiresAt: iso(expiresIn),
  status,
  respondedAt: null,
});
const tic = (signed: string[] = []) => ({
  key: 'tic.pdf',
  generatedAt: iso(-1),
  signers: [
    { id: HEAD, name: 'Head', isHead: true },
    { id: MEMBER, name: 'Member', isHead: false },
  ],
  signatures: signed.map((userId) => ({ userId, signerName: 'x', signedAt: iso(-1), ipAddress: '', signedKey: `${userId}.pdf` })),
});
const letter = (signed: boolean) => ({ key: 'lease.pdf', generatedAt: iso(-1), signatures: signed ? [{ userId: HEAD, signerName: 'Head', signedAt: iso(-1), ipAddress: '', signedKey: 'l.pdf' }] : [] });
const at = (step: LeaseUpState['step'], patch: Partial<LeaseUpState> = {}) => state({ step, ...patch });

/** For each action: a state where it is available, then states where it is not, with the refusal. */
const CASES: Record<LeaseUpAction, { available: LeaseUpState; refused: [LeaseUpState, MessageCode][] }> = {
  SubmitProfile: { available: at('documentation_review'), refused: [[at('documentation_review', { profileSubmitted: true }), 'profileAlreadySubmitted'], [at('decision'), 'actionNotAllowedNow']] },
  SubmitAdditionalDocuments: { available: at('additional_documents'), refused: [[at('documentation_review'), 'actionNotAllowedNow']] },
  ProvideConsentForScreening: { available: at('screening_consent'), refused: [[at('decision'), 'actionNotAllowedNow']] },
  DenyConsentForScreening: { available: at('screening_consent'), refused: [[at('documentation_review'), 'actionNotAllowedNow']] },
  ScheduleAppointment: {
    available: at('appointment_scheduling', { appointmentSlots: [iso(24)] }),
    refused: [[at('appointment_scheduling', { appointmentSlots: [iso(-1)] }), 'slotUnavailable'], [at('screening'), 'actionNotAllowedNow']],
  },
  RescheduleAppointment: {
    available: at('screening', { appointmentSlots: [iso(24), iso(48)], appointmentAt: iso(24) }),
    refused: [
      [at('screening', { appointmentSlots: [iso(-2)], appointmentAt: iso(-2) }), 'appointmentPassed'],
      [at('screening', { appointmentSlots: [iso(24)], appointmentAt: iso(24) }), 'slotUnavailable'],
      [at('appointment_scheduling'), 'actionNotAllowedNow'],
    ],
  },
  RespondToUnitOffer: {
    available: at('unit_offer', { offers: [offer('open')] }),
    refused: [
      [at('screening', { appointmentAt: iso(-1) }), 'unitsNotOfferedYet'],
      [at('unit_offer', { offers: [offer('open', -1)] }), 'offerNotOpen'],
      [at('unit_offer', { offers: [offer('open')], status: 'rejected' }), 'actionNotAllowedNow'],
    ],
  },
  SignTIC: {
    available: at('income_certification', { tic: tic([HEAD]) }),
    refused: [[at('income_certification'), 'ticNotGeneratedYet'], [at('income_certification', { tic: tic([HEAD, MEMBER]) }), 'alreadySigned'], [at('lease_signing'), 'actionNotAllowedNow']],
  },
  SignLeaseLetter: {
    available: at('lease_signing', { leaseLetter: letter(false) }),
    refused: [[at('lease_signing'), 'leaseLetterNotGeneratedYet'], [at('lease_signing', { leaseLetter: letter(true) }), 'alreadySigned'], [at('end', { leaseLetter: letter(false), status: 'ended' }), 'applicationClosed']],
  },
  Appeal: {
    available: at('decision', { status: 'rejected', appealDeadline: iso(24), profileSubmitted: true }),
    refused: [
      [at('decision', { status: 'rejected', appealDeadline: iso(-1), profileSubmitted: true }), 'appealPeriodPassed'],
      [at('decision', { status: 'rejected', appealDeadline: iso(24) }), 'profileNotSubmitted'],
      [at('decision'), 'actionNotAllowedNow'],
    ],
  },
  UpdateInfo: { available: at('screening'), refused: [[at('screening', { status: 'withdrawn' }), 'applicationClosed']] },
  Withdraw: {
    available: at('decision', { status: 'appeal_submitted' }),
    refused: [[at('decision', { status: 'rejected' }), 'actionNotAllowedNow'], [at('end', { status: 'ended' }), 'applicationClosed']],
  },
  MarkAsComplete: {
    available: at('documentation_review', { profileSubmitted: true }),
    refused: [
      [at('documentation_review'), 'profileNotSubmitted'],
      [at('documentation_review', { profileSubmitted: true, outstanding: [{ item: 'Pay stub', kind: 'requested' }] }), 'answerEveryDocument'],
      [at('decision', { profileSubmitted: true }), 'actionNotAllowedNow'],
    ],
  },
  RequestConsentForScreening: { available: at('documentation_review'), refused: [[at('decision'), 'actionNotAllowedNow']] },
  RejectApplication: {
    available: at('income_certification'),
    refused: [[at('documentation_review'), 'actionNotAllowedNow'], [at('decision', { status: 'rejected' }), 'actionNotAllowedNow']],
  },
  RejectDocuments: { available: at('documentation_review'), refused: [[at('additional_documents'), 'actionNotAllowedNow']] },
  RequestAdditionalDocuments: { available: at('documentation_review'), refused: [[at('screening'), 'actionNotAllowedNow']] },
  ProceedToAppointmentScheduling: { available: at('decision'), refused: [[at('documentation_review'), 'actionNotAllowedNow']] },
  OfferUnit: {
    available: at('screening', { appointmentAt: iso(-1) }),
    refused: [[at('screening'), 'actionNotAllowedNow'], [at('unit_offer', { appointmentAt: iso(-1), offers: [offer('accepted')] }), 'offerAlreadyAccepted']],
  },
  ProceedWithUnitOffer: {
    available: at('unit_offer', { offers: [offer('accepted')] }),
    refused: [[at('screening', { appointmentAt: iso(-1) }), 'unitsNotOfferedYet'], [at('unit_offer', { offers: [offer('open')] }), 'offerNotAccepted']],
  },
  GenerateIncomeCertification: {
    available: at('income_certification'),
    refused: [[at('income_certification', { tic: tic([HEAD]) }), 'alreadySigned'], [at('unit_offer'), 'actionNotAllowedNow']],
  },
  ApproveIncomeCertification: {
    available: at('income_certification', { tic: tic([HEAD, MEMBER]) }),
    refused: [[at('income_certification'), 'ticNotGeneratedYet'], [at('income_certification', { tic: tic([HEAD]) }), 'ticNotSigned']],
  },
  DenyIncomeCertification: {
    available: at('income_certification', { tic: tic([HEAD, MEMBER]) }),
    refused: [[at('income_certification', { tic: tic() }), 'ticNotSigned'], [at('lease_signing'), 'actionNotAllowedNow']],
  },
  CompleteLeaseSigning: {
    available: at('lease_signing', { leaseLetter: letter(true) }),
    refused: [[at('lease_signing', { leaseLetter: letter(false) }), 'leaseNotSigned'], [at('lease_signing'), 'leaseLetterNotGeneratedYet'], [at('income_certification'), 'actionNotAllowedNow']],
  },
  GrantAppeal: { available: at('decision', { status: 'appeal_submitted' }), refused: [[at('decision', { status: 'rejected' }), 'actionNotAllowedNow']] },
  DenyAppeal: { available: at('decision', { status: 'appeal_submitted' }), refused: [[at('decision'), 'actionNotAllowedNow']] },
  SendReminder: {
    available: at('additional_documents'),
    refused: [[at('documentation_review'), 'nothingToRemind'], [at('decision'), 'nothingToRemind'], [at('additional_documents', { status: 'rejected' }), 'nothingToRemind']],
  },
};

const whenOf = (action: LeaseUpAction, s: LeaseUpState) => leaseUpFinished(s, action) ?? LEASE_UP_TABLE[action].when(s as never, NOW);

describe('lease-up action table (pure, no Temporal)', () => {
  it('has a case for every action of the table', () => {
    expect(Object.keys(CASES).sort()).toEqual([...LEASE_UP_ACTIONS].sort());
  });

  it.each(LEASE_UP_ACTIONS)('%s: available when its rule holds, refused with the spec message otherwise', (action) => {
    const { available, refused } = CASES[action];
    expect(whenOf(action, available)).toBeNull();
    expect(leaseUpAvailable(available, NOW)[LEASE_UP_TABLE[action].by]).toContain(action);
    for (const [s, code] of refused) {
      expect(whenOf(action, s)).toBe(code);
      expect(leaseUpAvailable(s, NOW)[LEASE_UP_TABLE[action].by]).not.toContain(action);
    }
  });

  it('checks the input where the rule depends on it: which offer, which signer, which slot, which documents', () => {
    const actor = (role: 'applicant' | 'manager', impersonatedBy: string | null = null) => ({ userId: HEAD, role, impersonatedBy });
    const refuse = (action: LeaseUpAction, s: LeaseUpState, input: object) => refusalOf(LEASE_UP_TABLE, action, s, input as never, NOW, leaseUpFinished);
    const signing = at('income_certification', { tic: tic([HEAD]) });
    const signature = (signerId?: string) => ({ signatureKey: 'k', ipAddress: '', signerName: 'x', ...(signerId ? { signerId } : {}) });
    expect(refuse('SignTIC', signing, { actor: actor('applicant'), signature: signature(MEMBER) })).toBeNull();
    expect(refuse('SignTIC', signing, { actor: actor('applicant'), signature: signature() })).toBe('alreadySigned');
    expect(refuse('SignTIC', signing, { actor: actor('applicant'), signature: signature('70000000-0000-4000-8000-000000000009') })).toBe('notASigner');
    expect(refuse('SignTIC', signing, { actor: actor('applicant') })).toBe('signatureRequired');
    expect(refuse('SignTIC', signing, { actor: actor('applicant', HEAD), signature: signature(MEMBER) })).toBe('signingWhileImpersonating');
    expect(refuse('SignTIC', signing, { actor: actor('manager'), signature: signature(MEMBER) })).toBe('forbidden');
    const offering = at('unit_offer', { offers: [offer('open')] });
    expect(refuse('RespondToUnitOffer', offering, { actor: actor('applicant'), offerId: 'offer-1', accept: true })).toBeNull();
    expect(refuse('RespondToUnitOffer', offering, { actor: actor('applicant'), offerId: 'offer-9', accept: true })).toBe('offerNotOpen');
    const review = at('documentation_review');
    expect(refuse('RejectDocuments', review, { actor: actor('manager'), documents: [] })).toBe('documentsRequired');
    expect(refuse('RequestAdditionalDocuments', review, { actor: actor('manager'), documentTypes: ['Bank statement'], dueAt: iso(-1) })).toBe('actionNotAllowedNow');
    expect(refuse('ProceedToAppointmentScheduling', at('decision'), { actor: actor('manager'), slots: [iso(-3)] })).toBe('slotsRequired');
    expect(refuse('OfferUnit', at('screening', { appointmentAt: iso(-1) }), { actor: actor('manager'), units: [] })).toBe('unitsRequired');
    // A reason is asked for before anything else about the case's state.
    expect(refuse('RejectApplication', review, { actor: actor('manager') })).toBe('reasonRequired');
    expect(refuse('RejectApplication', at('decision'), { actor: actor('manager'), reason: 'Income' })).toBeNull();
  });

  it('derives the lists the web app uses from the table', () => {
    expect([...IRREVERSIBLE_ACTIONS].sort()).toEqual(['DenyAppeal', 'DenyIncomeCertification', 'RejectApplication', 'RespondToUnitOffer', 'Withdraw']);
    expect([...ACTIONS_NEEDING_REASON].sort()).toEqual(['Appeal', 'DenyAppeal', 'DenyIncomeCertification', 'RejectApplication']);
  });

  it('a finished application offers nothing and shows no task', () => {
    const view = leaseUpView(at('end', { status: 'ended' }), NOW);
    expect(view.availableActions).toEqual({ applicant: [], manager: [] });
    expect(view.pendingTasks).toEqual([]);
  });

  it('opens the tasks of the table: due dates and the overdue follow-up', () => {
    const view = leaseUpView(at('additional_documents', { documentsDueAt: iso(-1), documentsOverdue: true, outstanding: [{ item: 'Pay stub', kind: 'requested' }] }), NOW);
    expect(view.pendingTasks).toEqual([
      { role: 'applicant', action: 'SubmitProfile', dueAt: null },
      { role: 'applicant', action: 'SubmitAdditionalDocuments', dueAt: iso(-1), overdue: true },
      { role: 'manager', action: 'FollowUpAdditionalDocuments', dueAt: iso(-1), overdue: true },
    ]);
  });
});
