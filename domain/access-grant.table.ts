import { z } from 'zod';
import { actionsOf, availableActions, type ActionTable, type CaseTimer, type ChangeContext } from './case';
import { ACCESS_NOTICE_DAYS_BEFORE } from './access-grant';
import type { MessageCode } from './messages';
import { DAY } from './time';

/**
 * A granted delegated access as a durable case (design/workflows.md "Delegated access"):
 * from the moment a household grants an organisation's ambassadors access, one workflow per grant
 * holds its end. A notice goes to the household ACCESS_NOTICE_DAYS_BEFORE days before it, the grant
 * expires at its end by a durable timer, the household may extend it for another period, and the
 * household, the organisation's ambassadors or an admin may end it at any time. The request and
 * the code at the desk come before this case and stay rows in PostgreSQL (api/services/access-grants.ts).
 */

export const ACCESS_GRANT_ROLES = ['household', 'ambassador', 'admin'] as const;
export type AccessGrantRole = (typeof ACCESS_GRANT_ROLES)[number];

/** What the API knows when the household grants: the row, its organisation and the end of the period. */
export interface StartAccessGrantInput {
  grantId: string;
  /** The household's user (the account ambassadors act for). */
  userId: string;
  organizationId: string;
  organizationName: string;
  periodDays: number;
  grantedAt: string;
  expiresAt: string;
  /** The row's version once granted; every later change projects a higher one. */
  version: number;
}

const Empty: z.ZodType<Record<never, never>> = z.object({});
/** The input of each action (none carries data: who acts comes from the session). */
export const ACCESS_GRANT_INPUTS = {
  /** The household extends the access for another period from now. */
  Extend: Empty,
  /** The household stops the access. */
  Revoke: Empty,
  /** The organisation's ambassador stops acting for the household. */
  Withdraw: Empty,
  /** An admin ends the access. */
  EndByAdmin: Empty,
} as const;
export type AccessGrantAction = keyof typeof ACCESS_GRANT_INPUTS;
/** No action carries fields of its own (zod infers an empty object as a record of nothing). */
export type AccessGrantInputs = Record<AccessGrantAction, Record<never, never>>;

export type AccessGrantCaseStatus = 'granted' | 'revoked' | 'expired';

export interface AccessGrantCaseState {
  readonly input: StartAccessGrantInput;
  status: AccessGrantCaseStatus;
  expiresAt: string;
  /** Grows with each extension; timers set for an older end no longer count. */
  endEpoch: number;
  extensions: { at: string; expiresAt: string }[];
  noticesSent: { at: string; expiresAt: string }[];
  endedAt: string | null;
  /** The user who ended it (null: it expired). */
  endedBy: string | null;
  version: number;
  updatedAt: string;
  history: { at: string; action: string; by: string; note?: string }[];
  timers: CaseTimer[];
}

export interface AccessGrantCaseView {
  grantId: string;
  userId: string;
  organizationId: string;
  status: AccessGrantCaseStatus;
  grantedAt: string;
  expiresAt: string;
  endedAt: string | null;
  endedBy: string | null;
  extensions: { at: string; expiresAt: string }[];
  noticesSent: { at: string; expiresAt: string }[];
  availableActions: Record<AccessGrantRole, AccessGrantAction[]>;
  history: { at: string; action: string; by: string; note?: string }[];
  updatedAt: string;
  version: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The timers of one end: the notice before it (when still ahead) and the expiry itself. */
function endTimers(expiresAt: string, epoch: number, now: string): CaseTimer[] {
  const notice = Date.parse(expiresAt) - ACCESS_NOTICE_DAYS_BEFORE * DAY;
  return [...(notice > Date.parse(now) ? [{ event: 'Notice', at: iso(notice), token: `end-${epoch}` }] : []), { event: 'Expire', at: expiresAt, token: `end-${epoch}` }];
}

export function initialAccessGrantState(input: StartAccessGrantInput, now: string): AccessGrantCaseState {
  return {
    input,
    status: 'granted',
    expiresAt: input.expiresAt,
    endEpoch: 0,
    extensions: [],
    noticesSent: [],
    endedAt: null,
    endedBy: null,
    version: input.version,
    updatedAt: now,
    history: [{ at: input.grantedAt, action: 'Grant', by: 'household' }],
    // Armed by the kit when the run starts (no change of version: the row already says granted).
    timers: endTimers(input.expiresAt, 0, now),
  };
}

const live = (s: AccessGrantCaseState, now: number): MessageCode | null => (s.status === 'granted' && now < Date.parse(s.expiresAt) ? null : 'accessNotActive');

function end(s: AccessGrantCaseState, by: string, ctx: ChangeContext): void {
  s.status = 'revoked';
  s.endedAt = ctx.now;
  s.endedBy = by;
  ctx.notify({
    userId: s.input.userId,
    template: 'access-changed',
    params: { change: 'revoked', organizationName: s.input.organizationName, expiresOn: s.expiresAt.slice(0, 10) },
    dedupeKey: `access-grant:${s.input.grantId}:revoked`,
  });
}

/** One granted access: extend, or end it from any of the three sides. */
export const ACCESS_GRANT_TABLE = {
  Extend: {
    by: 'household',
    input: ACCESS_GRANT_INPUTS.Extend,
    when: live,
    change: (s, _input, ctx) => {
      s.expiresAt = iso(Date.parse(ctx.now) + s.input.periodDays * DAY);
      s.endEpoch += 1;
      s.extensions.push({ at: ctx.now, expiresAt: s.expiresAt });
      for (const t of endTimers(s.expiresAt, s.endEpoch, ctx.now)) ctx.timer(t.event, t.at, t.token);
    },
  },
  Revoke: { by: 'household', input: ACCESS_GRANT_INPUTS.Revoke, when: live, change: (s, input, ctx) => end(s, input.actor.userId, ctx) },
  Withdraw: { by: 'ambassador', input: ACCESS_GRANT_INPUTS.Withdraw, when: live, change: (s, input, ctx) => end(s, input.actor.userId, ctx) },
  EndByAdmin: { by: 'admin', input: ACCESS_GRANT_INPUTS.EndByAdmin, when: live, change: (s, input, ctx) => end(s, input.actor.userId, ctx) },
} satisfies ActionTable<AccessGrantCaseState, AccessGrantInputs, AccessGrantRole>;

export const ACCESS_GRANT_ACTIONS = actionsOf(ACCESS_GRANT_TABLE);

export const isFinalAccessGrant = (s: Pick<AccessGrantCaseState, 'status'>) => s.status !== 'granted';
export function accessGrantFinished(s: Pick<AccessGrantCaseState, 'status'>): MessageCode | null {
  return isFinalAccessGrant(s) ? 'accessNotActive' : null;
}

/** A timer of the current end fired: the notice before it, or the expiry (household told both times). */
export function fireAccessGrantTimer(s: AccessGrantCaseState, timer: CaseTimer, ctx: ChangeContext): boolean {
  if (timer.token !== `end-${s.endEpoch}` || s.status !== 'granted') return false;
  const notify = (change: 'ending' | 'expired') =>
    ctx.notify({
      userId: s.input.userId,
      template: 'access-changed',
      params: { change, organizationName: s.input.organizationName, expiresOn: s.expiresAt.slice(0, 10) },
      dedupeKey: `access-grant:${s.input.grantId}:${change}:${s.expiresAt}`,
    });
  if (timer.event === 'Notice') {
    s.noticesSent.push({ at: ctx.now, expiresAt: s.expiresAt });
    notify('ending');
    return true;
  }
  if (timer.event === 'Expire') {
    s.status = 'expired';
    s.endedAt = s.expiresAt;
    notify('expired');
    return true;
  }
  return false;
}

export function accessGrantView(s: AccessGrantCaseState, now: number): AccessGrantCaseView {
  const available = availableActions(ACCESS_GRANT_TABLE, ACCESS_GRANT_ROLES, s, now, accessGrantFinished);
  return {
    grantId: s.input.grantId,
    userId: s.input.userId,
    organizationId: s.input.organizationId,
    status: s.status,
    grantedAt: s.input.grantedAt,
    expiresAt: s.expiresAt,
    endedAt: s.endedAt,
    endedBy: s.endedBy,
    extensions: [...s.extensions],
    noticesSent: [...s.noticesSent],
    availableActions: available,
    history: [...s.history],
    updatedAt: s.updatedAt,
    version: s.version,
  };
}
