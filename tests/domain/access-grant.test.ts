import { describe, expect, it } from 'vitest';
import {
  ACCESS_REQUEST_OPEN_DAYS,
  currentStatus,
  decideAccess,
  isAccessLive,
  noticeAt,
  type AccessGrantState,
} from '../../domain';

/** The pure rules of consented access (design/workflows.md "Delegated access"), on a fixed clock. */
const DAY = 86_400_000;
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
