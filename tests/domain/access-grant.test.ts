import { describe, expect, it } from 'vitest';
import {
  ACCESS_REQUEST_OPEN_DAYS,
  currentStatus,
  decideAccess,
  isAccessLive,
  noticeAt,
  ACCESS_GRANT_TABLE,
  accessGrantFinished,
  fireAccessGrantTimer,
  initialAccessGrantState,
  refusalOf,
  type AccessGrantState,
  type CaseNotice,
  type CaseTimer,
  type StartAccessGrantInput,
} from '../../domain';
import { DAY } from '../../domain/time';

/** The pure rules of consented access (design/workflows.md "Delegated access"), on a fixed clock. */
const t0 = new Date('2026-03-02T15:00:00Z');
const at = (days: number) => new Date(t0.getTime() + days * DAY);

function requested(periodDays = 90): AccessGrantState {
  const d = decideAccess(null, 'ambassador', { type: 'request', periodDays }, t0);
  if (!d.ok) throw new Error(d.code);
  return d.state;
}

function granted(periodDays = 90, when = at(1)): AccessGrantState {
  const d = decideAccess(requested(periodDays), 'household', { type: 'grant', via: 'code' }, when);
  if (!d.ok) throw new Error(d.code);
  return d.state;
}

describe('consented access rules', () => {
  it('a request is pending until answered, and lapses after the open days', () => {
    const state = requested();
    expect(state.status).toBe('pending');
    expect(currentStatus(state, at(ACCESS_REQUEST_OPEN_DAYS - 0.001))).toBe('pending');
    expect(currentStatus(state, at(ACCESS_REQUEST_OPEN_DAYS))).toBe('expired');
    expect(isAccessLive(state, t0)).toBe(false);
  });

  it('only the household grants, only a pending request, for the organisation period from the moment of granting', () => {
    expect(decideAccess(requested(), 'ambassador', { type: 'grant', via: 'code' }, at(1))).toEqual({ ok: false, code: 'forbidden' });
    expect(decideAccess(null, 'household', { type: 'grant', via: 'settings' }, at(1))).toEqual({ ok: false, code: 'accessRequestNotPending' });
    const state = granted(30, at(2));
    expect(state).toMatchObject({ status: 'granted', grantedVia: 'code', grantedAt: at(2), expiresAt: at(32) });
    expect(isAccessLive(state, at(31.999))).toBe(true);
    expect(isAccessLive(state, at(32))).toBe(false);
    // A lapsed request can no longer be granted.
    expect(decideAccess(requested(), 'household', { type: 'grant', via: 'settings' }, at(ACCESS_REQUEST_OPEN_DAYS + 1))).toEqual({ ok: false, code: 'accessRequestNotPending' });
    // A granted one is not granted twice.
    expect(decideAccess(state, 'household', { type: 'grant', via: 'settings' }, at(3))).toEqual({ ok: false, code: 'accessRequestNotPending' });
  });

  it('an invalid organisation period falls back to the default of 90 days', () => {
    expect(granted(0, t0).expiresAt).toEqual(at(90));
    expect(granted(400, t0).expiresAt).toEqual(at(90));
    expect(granted(1.5, t0).expiresAt).toEqual(at(90));
  });

  it('the household, an admin or the ambassador revoke at once; a timer cannot; an ended grant cannot be revoked again', () => {
    for (const actor of ['household', 'admin', 'ambassador'] as const) {
      const d = decideAccess(granted(), actor, { type: 'revoke' }, at(5));
      expect(d).toMatchObject({ ok: true, state: { status: 'revoked', endedAt: at(5) } });
      if (d.ok) expect(isAccessLive(d.state, at(5))).toBe(false);
    }
    expect(decideAccess(granted(), 'timer', { type: 'revoke' }, at(5))).toEqual({ ok: false, code: 'forbidden' });
    // Declining a pending request is a revoke too.
    expect(decideAccess(requested(), 'household', { type: 'revoke' }, at(1))).toMatchObject({ ok: true, state: { status: 'revoked' } });
    const revoked = decideAccess(granted(), 'household', { type: 'revoke' }, at(5));
    if (!revoked.ok) throw new Error('expected revoke');
    expect(decideAccess(revoked.state, 'household', { type: 'revoke' }, at(6))).toEqual({ ok: false, code: 'accessNotActive' });
    expect(decideAccess(granted(), 'household', { type: 'revoke' }, at(200))).toEqual({ ok: false, code: 'accessNotActive' });
  });

  it('the timer expires a grant only once its time has come, dated when it ran out', () => {
    const state = granted(90, at(1));
    expect(decideAccess(state, 'timer', { type: 'expire' }, at(90))).toEqual({ ok: false, code: 'accessNotDue' });
    expect(decideAccess(state, 'timer', { type: 'expire' }, at(95))).toMatchObject({ ok: true, state: { status: 'expired', endedAt: at(91) } });
    expect(decideAccess(state, 'household', { type: 'expire' }, at(95))).toEqual({ ok: false, code: 'forbidden' });
  });

  it('a new request is refused while one is open, allowed once it ended', () => {
    expect(decideAccess(requested(), 'ambassador', { type: 'request', periodDays: 90 }, at(1))).toEqual({ ok: false, code: 'accessAlreadyRequested' });
    expect(decideAccess(granted(), 'ambassador', { type: 'request', periodDays: 90 }, at(2))).toEqual({ ok: false, code: 'accessAlreadyRequested' });
    expect(decideAccess(granted(), 'ambassador', { type: 'request', periodDays: 90 }, at(100))).toMatchObject({ ok: true, state: { status: 'pending', requestedAt: at(100) } });
    expect(decideAccess(granted(), 'household', { type: 'request', periodDays: 90 }, at(100))).toEqual({ ok: false, code: 'forbidden' });
  });

  it('the notice falls 7 days before the end of a grant', () => {
    expect(noticeAt(granted(90, t0))).toEqual(at(83));
    expect(noticeAt(requested())).toBeNull();
  });
});

describe('the granted access as a case (action table, timers)', () => {
  const input: StartAccessGrantInput = {
    grantId: '00000000-0000-4000-8000-000000000001',
    userId: '00000000-0000-4000-8000-000000000002',
    organizationId: '00000000-0000-4000-8000-000000000003',
    organizationName: 'Riverside',
    periodDays: 90,
    grantedAt: t0.toISOString(),
    expiresAt: at(90).toISOString(),
    version: 2,
  };
  const ctx = (now: Date) => {
    const timers: CaseTimer[] = [];
    const notices: CaseNotice[] = [];
    return { timers, notices, ctx: { now: now.toISOString(), timer: (event: string, when: string, token: string) => timers.push({ event, at: when, token }), notify: (n: CaseNotice) => notices.push(n) } };
  };
  const actor = (role: 'household' | 'ambassador' | 'admin') => ({ actor: { userId: input.userId, role, impersonatedBy: null } });

  it('starts with its notice 7 days before the end and the expiry at the end, at the row version', () => {
    const s = initialAccessGrantState(input, t0.toISOString());
    expect(s.timers).toEqual([
      { event: 'Notice', at: at(83).toISOString(), token: 'end-0' },
      { event: 'Expire', at: at(90).toISOString(), token: 'end-0' },
    ]);
    expect(s.version).toBe(2);
    // A period shorter than the notice has only its expiry.
    expect(initialAccessGrantState({ ...input, expiresAt: at(5).toISOString() }, t0.toISOString()).timers.map((t) => t.event)).toEqual(['Expire']);
  });

  it('each side ends it with its own action; nothing is possible past the end even before the timer', () => {
    const s = initialAccessGrantState(input, t0.toISOString());
    expect(refusalOf(ACCESS_GRANT_TABLE, 'Extend', s, actor('ambassador'), at(1).getTime(), accessGrantFinished)).toBe('forbidden');
    expect(refusalOf(ACCESS_GRANT_TABLE, 'Withdraw', s, actor('ambassador'), at(1).getTime(), accessGrantFinished)).toBeNull();
    expect(refusalOf(ACCESS_GRANT_TABLE, 'Revoke', s, actor('household'), at(90).getTime(), accessGrantFinished)).toBe('accessNotActive');
    const { ctx: c, notices } = ctx(at(2));
    ACCESS_GRANT_TABLE.EndByAdmin.change(s, actor('admin'), c);
    expect(s).toMatchObject({ status: 'revoked', endedAt: at(2).toISOString(), endedBy: input.userId });
    expect(notices.map((n) => n.params.change)).toEqual(['revoked']);
    expect(refusalOf(ACCESS_GRANT_TABLE, 'Revoke', s, actor('household'), at(3).getTime(), accessGrantFinished)).toBe('accessNotActive');
  });

  it('an extension moves the end; the timers of the old end no longer count', () => {
    const s = initialAccessGrantState(input, t0.toISOString());
    const { ctx: c, timers } = ctx(at(85));
    ACCESS_GRANT_TABLE.Extend.change(s, actor('household'), c);
    expect(s.expiresAt).toBe(at(175).toISOString());
    expect(timers).toEqual([
      { event: 'Notice', at: at(168).toISOString(), token: 'end-1' },
      { event: 'Expire', at: at(175).toISOString(), token: 'end-1' },
    ]);
    expect(fireAccessGrantTimer(s, { event: 'Expire', at: at(90).toISOString(), token: 'end-0' }, ctx(at(90)).ctx)).toBe(false);
    const fired = ctx(at(175));
    expect(fireAccessGrantTimer(s, timers[1]!, fired.ctx)).toBe(true);
    expect(s).toMatchObject({ status: 'expired', endedAt: at(175).toISOString(), endedBy: null });
    expect(fired.notices.map((n) => [n.params.change, n.dedupeKey])).toEqual([['expired', `access-grant:${input.grantId}:expired:${at(175).toISOString()}`]]);
  });
});
