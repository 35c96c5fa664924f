import { describe, expect, it } from 'vitest';
import {
  RECERT_ACTIONS,
  RECERT_TABLE,
  RELOCATION_ACTIONS,
  RELOCATION_TABLE,
  fireRecertTimer,
  fireRelocationTimer,
  initialRecertState,
  initialRelocationState,
  recertFinished,
  recertView,
  refusalOf,
  relocationFinished,
  relocationView,
  startRecertTimers,
  type CaseNotice,
  type CaseTimer,
  type MessageCode,
  type RecertAction,
  type RecertState,
  type RelocationAction,
  type RelocationState,
} from '../../domain';

/** The recertification and relocation action tables without Temporal: every row's "allowed when". */
const NOW = Date.parse('2026-11-18T15:00:00.000Z');
const iso = (days: number) => new Date(NOW + days * 86_400_000).toISOString();
const HEAD = '10000000-0000-4000-8000-000000000001';
const MEMBER = '10000000-0000-4000-8000-000000000002';

function recert(patch: Partial<RecertState> = {}): RecertState {
  const s = initialRecertState(
    {
      caseId: '20000000-0000-4000-8000-000000000001',
      householdId: '30000000-0000-4000-8000-000000000001',
      organizationId: '50000000-0000-4000-8000-000000000001',
      tenantUserId: HEAD,
      kind: 'annual',
      deadline: iso(60).slice(0, 10),
      signers: [
        { id: HEAD, name: 'Head', isHead: true },
        { id: MEMBER, name: 'Member', isHead: false },
      ],
    },
    iso(-60),
  );
  return Object.assign(s, patch);
}

function relocation(patch: Partial<RelocationState> = {}): RelocationState {
  const s = initialRelocationState(
    { relocationId: '20000000-0000-4000-8000-000000000002', householdId: '30000000-0000-4000-8000-000000000001', organizationId: '50000000-0000-4000-8000-000000000001', tenantUserId: HEAD, reason: 'Boiler' },
    iso(-10),
  );
  return Object.assign(s, patch);
}

const RECERT_CASES: Record<RecertAction, { available: RecertState; refused: [RecertState, MessageCode][] }> = {
  ConfirmProfile: { available: recert(), refused: [[recert({ stage: 'profile_complete' }), 'actionNotAllowedNow'], [recert({ expired: true }), 'recertificationDeadlineEnded']] },
  SubmitProfile: { available: recert(), refused: [[recert({ stage: 'under_manager_review' }), 'actionNotAllowedNow']] },
  SubmitDocuments: { available: recert({ stage: 'profile_complete' }), refused: [[recert(), 'actionNotAllowedNow'], [recert({ stage: 'profile_complete', expired: true }), 'recertificationDeadlineEnded']] },
  SignTIC: {
    available: recert({ stage: 'documents_submitted_pending_signature', ticKey: 't', signedAt: { [HEAD]: iso(-1) } }),
    refused: [
      [recert({ stage: 'under_manager_review' }), 'ticNotGeneratedYet'],
      [recert({ stage: 'documents_signed_awaiting_approval', ticKey: 't' }), 'actionNotAllowedNow'],
      [recert({ stage: 'documents_submitted_pending_signature', ticKey: 't', signedAt: { [HEAD]: iso(-1), [MEMBER]: iso(-1) } }), 'alreadySigned'],
    ],
  },
  Resubmit: { available: recert({ stage: 'returned_for_changes' }), refused: [[recert({ stage: 'pending_manager_review' }), 'actionNotAllowedNow']] },
  GenerateTIC: { available: recert({ stage: 'pending_manager_review' }), refused: [[recert({ stage: 'profile_complete' }), 'actionNotAllowedNow']] },
  Approve: {
    available: recert({ stage: 'documents_signed_awaiting_approval' }),
    refused: [[recert({ stage: 'under_manager_review' }), 'actionNotAllowedNow'], [recert({ stage: 'completed' }), 'recertificationCompleted']],
  },
  ReturnForChanges: { available: recert({ stage: 'under_manager_review' }), refused: [[recert({ stage: 'returned_for_changes' }), 'actionNotAllowedNow']] },
};

const unit = { unitNumber: '2C', bedroomType: '1 bedroom', address: '5 Side St' };
const openOffer = (expiresAt: string | null = iso(3)) => ({ offerId: 'r.1', unit, offeredAt: iso(-1), expiresAt, state: 'open' as const });
const RELOCATION_CASES: Record<RelocationAction, { available: RelocationState; refused: [RelocationState, MessageCode][] }> = {
  SubmitProfile: { available: relocation(), refused: [[relocation({ status: 'awaiting_offer' }), 'actionNotAllowedNow']] },
  AcceptOffer: {
    available: relocation({ status: 'offered', offers: [openOffer()] }),
    refused: [[relocation({ status: 'offered', offers: [openOffer(iso(-1))] }), 'offerNotOpen'], [relocation({ status: 'scheduling' }), 'actionNotAllowedNow']],
  },
  DeclineOffer: { available: relocation({ status: 'offered', offers: [openOffer(null)] }), refused: [[relocation({ status: 'awaiting_offer' }), 'actionNotAllowedNow']] },
  BookSlot: { available: relocation({ status: 'scheduling' }), refused: [[relocation({ status: 'relocated' }), 'actionNotAllowedNow']] },
  OfferTemporaryUnit: { available: relocation({ status: 'awaiting_offer' }), refused: [[relocation(), 'actionNotAllowedNow']] },
  ConfirmMove: { available: relocation({ status: 'moving_booked' }), refused: [[relocation({ status: 'scheduling' }), 'actionNotAllowedNow']] },
  ExtendRelocation: { available: relocation({ status: 'overdue' }), refused: [[relocation({ status: 'moving_booked' }), 'actionNotAllowedNow']] },
  ConfirmReturn: { available: relocation({ status: 'relocated' }), refused: [[relocation({ status: 'returned' }), 'relocationEnded']] },
};

describe('recertification action table (pure)', () => {
  it('has a case for every action', () => expect(Object.keys(RECERT_CASES).sort()).toEqual([...RECERT_ACTIONS].sort()));

  it.each(RECERT_ACTIONS)('%s: available when its rule holds, refused with the spec message otherwise', (action) => {
    const whenOf = (s: RecertState) => recertFinished(s) ?? (RECERT_TABLE[action].when as (s: RecertState, now: number) => MessageCode | null)(s, NOW);
    expect(whenOf(RECERT_CASES[action].available)).toBeNull();
    expect(recertView(RECERT_CASES[action].available, NOW).availableActions[RECERT_TABLE[action].by]).toContain(action);
    for (const [s, code] of RECERT_CASES[action].refused) expect(whenOf(s)).toBe(code);
  });

  it('once expired the manager may still approve from any stage; the tenant may do nothing', () => {
    const view = recertView(recert({ expired: true }), NOW);
    expect(view).toMatchObject({ status: 'expired', availableActions: { tenant: [], manager: ['Approve'] } });
    expect(view.pendingTasks).toEqual([]);
  });

  it('checks who signs and the reasons given', () => {
    const refuse = (action: RecertAction, s: RecertState, input: object) => refusalOf(RECERT_TABLE, action, s, input as never, NOW, recertFinished);
    const signing = RECERT_CASES.SignTIC.available;
    const tenant = (impersonatedBy: string | null = null) => ({ userId: HEAD, role: 'tenant', impersonatedBy });
    expect(refuse('SignTIC', signing, { actor: tenant(), signerId: MEMBER, signatureKey: 'k' })).toBeNull();
    expect(refuse('SignTIC', signing, { actor: tenant(), signatureKey: 'k' })).toBe('alreadySigned');
    expect(refuse('SignTIC', signing, { actor: tenant(), signerId: '70000000-0000-4000-8000-000000000009', signatureKey: 'k' })).toBe('signerNotAdultMember');
    expect(refuse('SignTIC', signing, { actor: tenant(), signerId: MEMBER })).toBe('emptySignature');
    expect(refuse('SignTIC', signing, { actor: tenant(HEAD), signerId: MEMBER, signatureKey: 'k' })).toBe('signingWhileImpersonating');
    const manager = { userId: HEAD, role: 'manager', impersonatedBy: null };
    expect(refuse('ReturnForChanges', recert({ stage: 'under_manager_review' }), { actor: manager })).toBe('reasonRequired');
    expect(refuse('Resubmit', recert({ stage: 'returned_for_changes', returnReasons: ['a', 'b'] }), { actor: tenant(), reasons: ['a'] })).toBe('reasonRequired');
  });

  it('sets a notice timer for each of 120, 90, 60 and 30 days still ahead, and one for the deadline; each notice is sent once', () => {
    const s = recert();
    const timers: CaseTimer[] = [];
    startRecertTimers(s, { now: iso(-40), timer: (event, at, token) => timers.push({ event, at, token }), notify: () => {} });
    // Opened 100 days before the deadline: the 120-day notice is past, 90, 60 and 30 are ahead.
    expect(timers.map((t) => t.token)).toEqual(['notice-90', 'notice-60', 'notice-30', 'deadline']);
    const notices: CaseNotice[] = [];
    const ctx = { now: iso(0), timer: () => {}, notify: (n: CaseNotice) => notices.push(n) };
    expect(fireRecertTimer(s, timers[0]!, ctx)).toBe('90');
    expect(fireRecertTimer(s, timers[3]!, ctx)).toBe(true);
    expect(fireRecertTimer(s, timers[3]!, ctx)).toBe(false);
    expect(notices.map((n) => n.dedupeKey)).toEqual([`recert:${s.input.caseId}:notice-90`, `recert:${s.input.caseId}:expired`]);
    expect(s.expired).toBe(true);
  });
});

describe('relocation action table (pure)', () => {
  it('has a case for every action', () => expect(Object.keys(RELOCATION_CASES).sort()).toEqual([...RELOCATION_ACTIONS].sort()));

  it.each(RELOCATION_ACTIONS)('%s: available when its rule holds, refused with the spec message otherwise', (action) => {
    const whenOf = (s: RelocationState) => relocationFinished(s) ?? RELOCATION_TABLE[action].when(s as never, NOW);
    expect(whenOf(RELOCATION_CASES[action].available)).toBeNull();
    expect(relocationView(RELOCATION_CASES[action].available, NOW).availableActions[RELOCATION_TABLE[action].by]).toContain(action);
    for (const [s, code] of RELOCATION_CASES[action].refused) expect(whenOf(s)).toBe(code);
  });

  it('a move sets reminders and the end; an extension makes the older timers count for nothing', () => {
    const s = relocation({ status: 'moving_booked' });
    const timers: CaseTimer[] = [];
    const notices: CaseNotice[] = [];
    const ctx = (now: string) => ({ now, timer: (event: string, at: string, token: string) => timers.push({ event, at, token }), notify: (n: CaseNotice) => notices.push(n) });
    RELOCATION_TABLE.ConfirmMove.change(s, { actor: { userId: HEAD, role: 'manager', impersonatedBy: null } }, ctx(iso(0)));
    expect(timers.map((t) => t.token)).toEqual(['end-1-30', 'end-1-14', 'end-1-7', 'end-1']);
    RELOCATION_TABLE.ExtendRelocation.change(s, { actor: { userId: HEAD, role: 'manager', impersonatedBy: null }, until: iso(300).slice(0, 10), reason: 'Works late' }, ctx(iso(1)));
    expect(fireRelocationTimer(s, timers[3]!, ctx(iso(190)))).toBe(false);
    expect(s.status).toBe('relocated');
    expect(fireRelocationTimer(s, timers.at(-1)!, ctx(iso(301)))).toBe(true);
    expect(s.status).toBe('overdue');
    expect(notices.map((n) => n.template)).toEqual(['relocation-overdue']);
    // While overdue, the manager owes the return: a task due at the end, flagged overdue.
    expect(relocationView(s, NOW).pendingTasks).toContainEqual({ role: 'manager', action: 'ConfirmReturn', dueAt: s.endsAt, overdue: true });
  });

  it('a relocation needs a complete profile', () => {
    const refuse = (completion: number) =>
      refusalOf(RELOCATION_TABLE, 'SubmitProfile', relocation(), { actor: { userId: HEAD, role: 'tenant', impersonatedBy: null }, profileCompletion: completion } as never, NOW, relocationFinished);
    expect(refuse(99)).toBe('profileIncomplete');
    expect(refuse(100)).toBeNull();
  });
});
