/**
 * Consented access (design/workflows.md "Delegated access"): a household lets the
 * ambassadors of one organisation act for it. Pure rules, no I/O: the API applies them to the
 * `access_grants` row for the request and its answer; once granted, the grant's durable case
 * (access-grant.table.ts, workflows/access-grant.ts) holds its notice, expiry, extension and end.
 */
import { DAY } from './time';

export const ACCESS_GRANT_STATUSES = ['pending', 'granted', 'revoked', 'expired'] as const;
export type AccessGrantStatus = (typeof ACCESS_GRANT_STATUSES)[number];

/** Per-organisation period of a grant unless the organisation sets another. */
export const DEFAULT_ACCESS_PERIOD_DAYS = 90;
export const MAX_ACCESS_PERIOD_DAYS = 365;
/** The household is told this many days before a grant ends (by the grant case's durable timer). */
export const ACCESS_NOTICE_DAYS_BEFORE = 7;
/** An unanswered request lapses after this many days. */
export const ACCESS_REQUEST_OPEN_DAYS = 7;
/** The code read out at the ambassador's desk works this long. */
export const ACCESS_CODE_TTL_MINUTES = 30;

export type AccessGrantVia = 'settings' | 'code';

export interface AccessGrantState {
  /** As stored; `currentStatus` tells what it is at a given time. */
  status: AccessGrantStatus;
  periodDays: number;
  requestedAt: Date;
  pendingUntil: Date;
  grantedAt: Date | null;
  grantedVia: AccessGrantVia | null;
  expiresAt: Date | null;
  endedAt: Date | null;
}

/** Who acts: the ambassador of the organisation, the household itself, an admin, or the timer. */
export type AccessGrantActor = 'ambassador' | 'household' | 'admin' | 'timer';

export type AccessGrantEvent =
  | { type: 'request'; periodDays: number }
  | { type: 'grant'; via: AccessGrantVia }
  | { type: 'revoke' }
  | { type: 'expire' };

export type AccessGrantRefusal = 'forbidden' | 'accessAlreadyRequested' | 'accessRequestNotPending' | 'accessNotActive' | 'accessNotDue';
export type AccessGrantDecision = { ok: true; state: AccessGrantState } | { ok: false; code: AccessGrantRefusal };

/** Who may send which event (the table of design/workflows.md, plus admins and ambassadors ending access). */
const ALLOWED: Record<AccessGrantEvent['type'], readonly AccessGrantActor[]> = {
  request: ['ambassador'],
  grant: ['household'],
  revoke: ['household', 'admin', 'ambassador'],
  expire: ['timer'],
};

/** The status at `now`: a request or grant whose time has passed is expired even before it is written. */
export function currentStatus(state: AccessGrantState, now: Date): AccessGrantStatus {
  const deadline = deadlineOf(state);
  if (deadline && now.getTime() >= deadline.getTime()) return 'expired';
  return state.status;
}

/** Whether ambassadors of the organisation may act for the household at `now`. */
export function isAccessLive(state: AccessGrantState | null, now: Date): boolean {
  return state !== null && currentStatus(state, now) === 'granted';
}

/** When the open request lapses or the grant ends (null once revoked or expired). */
export function deadlineOf(state: AccessGrantState): Date | null {
  if (state.status === 'pending') return state.pendingUntil;
  if (state.status === 'granted') return state.expiresAt;
  return null;
}

/** When the household should be told the grant is about to end. */
export function noticeAt(state: AccessGrantState): Date | null {
  if (state.status !== 'granted' || !state.expiresAt) return null;
  return new Date(state.expiresAt.getTime() - ACCESS_NOTICE_DAYS_BEFORE * DAY);
}

/** A grant row's period: the organisation's setting when valid, else the default. */
export function accessPeriodDays(organizationSetting: number | null | undefined): number {
  const n = organizationSetting ?? DEFAULT_ACCESS_PERIOD_DAYS;
  return Number.isInteger(n) && n >= 1 && n <= MAX_ACCESS_PERIOD_DAYS ? n : DEFAULT_ACCESS_PERIOD_DAYS;
}

/**
 * One step of the grant. `state` is the open grant of this household and organisation (null when
 * there is none, or only closed ones). Refusals change nothing.
 */
export function decideAccess(state: AccessGrantState | null, actor: AccessGrantActor, event: AccessGrantEvent, now: Date): AccessGrantDecision {
  if (!ALLOWED[event.type].includes(actor)) return { ok: false, code: 'forbidden' };
  const status = state ? currentStatus(state, now) : null;
  switch (event.type) {
    case 'request':
      if (status === 'pending' || status === 'granted') return { ok: false, code: 'accessAlreadyRequested' };
      return {
        ok: true,
        state: {
          status: 'pending',
          periodDays: accessPeriodDays(event.periodDays),
          requestedAt: now,
          pendingUntil: new Date(now.getTime() + ACCESS_REQUEST_OPEN_DAYS * DAY),
          grantedAt: null,
          grantedVia: null,
          expiresAt: null,
          endedAt: null,
        },
      };
    case 'grant':
      if (!state || status !== 'pending') return { ok: false, code: 'accessRequestNotPending' };
      return { ok: true, state: { ...state, status: 'granted', grantedAt: now, grantedVia: event.via, expiresAt: new Date(now.getTime() + state.periodDays * DAY) } };
    case 'revoke':
      if (!state || (status !== 'pending' && status !== 'granted')) return { ok: false, code: 'accessNotActive' };
      return { ok: true, state: { ...state, status: 'revoked', endedAt: now } };
    case 'expire': {
      // The timer closes what has run out; the time it ran out is when it ended.
      if (!state || status !== 'expired' || state.status === 'expired' || state.status === 'revoked') return { ok: false, code: 'accessNotDue' };
      return { ok: true, state: { ...state, status: 'expired', endedAt: deadlineOf(state) } };
    }
  }
}
