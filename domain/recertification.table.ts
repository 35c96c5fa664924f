import { z } from 'zod';
import { actionsOf, availableActions, tasksOf, type ActionTable, type CaseTimer, type ChangeContext } from './case';
import type { MessageCode } from './messages';
import { DAY } from './time';
import {
  RECERT_INPUTS,
  RECERT_NOTICE_DAYS,
  type RecertHistoryEntry,
  type RecertInputs,
  type RecertManagerAction,
  type RecertTenantAction,
  type RecertNotice,
  type RecertStage,
  type RecertStatus,
  type RecertView,
  type StartRecertificationInput,
} from './recertification';

/** The state of one recertification cycle: plain data, read and changed by the table below only. */
export interface RecertState {
  readonly input: StartRecertificationInput;
  readonly startedAt: string;
  stage: RecertStage;
  /** The deadline passed before completion: the tenant contacts the managing agent, the manager may still complete. */
  expired: boolean;
  profileLocked: boolean;
  ticKey: string | null;
  /** The TIC with every signature so far drawn on it (the record) and its SHA-256; absent until someone signs. */
  signedTic?: { key: string; sha256: string } | null;
  returnReasons: string[];
  approvedAt: string | null;
  /** Signer id to the time they signed the current TIC. */
  signedAt: Record<string, string>;
  notices: RecertNotice[];
  version: number;
  updatedAt: string;
  history: RecertHistoryEntry[];
  timers: CaseTimer[];
}

export function initialRecertState(input: StartRecertificationInput, now: string): RecertState {
  return {
    input,
    startedAt: now,
    stage: 'action_needed',
    expired: false,
    profileLocked: false,
    ticKey: null,
    returnReasons: [],
    approvedAt: null,
    signedAt: {},
    notices: [],
    version: 1,
    updatedAt: now,
    history: [{ at: now, action: 'Start', by: 'system', ...(input.reason ? { note: input.reason } : {}) }],
    timers: [],
  };
}

/** The side effects the recertification workflow runs for an action. */
export type RecertEffect = 'lockProfile' | 'unlockProfile' | 'generateTic' | 'signTic';

const MANAGER_REVIEW: readonly RecertStage[] = ['under_manager_review', 'pending_manager_review'];
const isFinal = (s: Pick<RecertState, 'stage'>) => s.stage === 'completed';
export const recertStatus = (s: Pick<RecertState, 'stage' | 'expired'>): RecertStatus => (isFinal(s) ? 'completed' : s.expired ? 'expired' : 'active');
export const deadlineAt = (s: RecertState) => `${s.input.deadline}T00:00:00.000Z`;

/** Tenant actions: after the deadline only the manager acts (spec section 8: contact the managing agent). */
const tenantAt = (s: RecertState, ...stages: RecertStage[]): MessageCode | null =>
  s.expired ? 'recertificationDeadlineEnded' : stages.includes(s.stage) ? null : 'actionNotAllowedNow';
const allSigned = (s: RecertState) => s.input.signers.every((g) => s.signedAt[g.id]);
const dueByDeadline = { due: deadlineAt };

/** Confirming or submitting the profile completes it and locks it against editing (irreversible). */
function completeProfile(s: RecertState): void {
  s.profileLocked = true;
  s.stage = 'profile_complete';
}

/**
 * One recertification cycle (spec section 4; shared/design/workflows.md "Recertification"): the
 * tenant's confirm-or-update choice, documents, TIC, signatures of the head and each adult member,
 * the manager's approval or return for changes.
 */
export const RECERT_TABLE = {
  ConfirmProfile: {
    by: 'tenant',
    input: RECERT_INPUTS.ConfirmProfile,
    when: (s) => tenantAt(s, 'action_needed'),
    change: completeProfile,
    effect: 'lockProfile',
    task: dueByDeadline,
    irreversible: true,
  },
  // The update path of the same choice as ConfirmProfile: one task, not two.
  SubmitProfile: {
    by: 'tenant',
    input: RECERT_INPUTS.SubmitProfile,
    when: (s) => tenantAt(s, 'action_needed'),
    change: completeProfile,
    effect: 'lockProfile',
  },
  SubmitDocuments: {
    by: 'tenant',
    input: RECERT_INPUTS.SubmitDocuments,
    when: (s) => tenantAt(s, 'profile_complete'),
    change: (s) => {
      s.stage = 'under_manager_review';
    },
    task: dueByDeadline,
  },
  SignTIC: {
    by: 'tenant',
    input: RECERT_INPUTS.SignTIC,
    when: (s) => {
      if (s.expired) return 'recertificationDeadlineEnded';
      if (s.stage !== 'documents_submitted_pending_signature') return s.ticKey ? 'actionNotAllowedNow' : 'ticNotGeneratedYet';
      return allSigned(s) ? 'alreadySigned' : null;
    },
    check: (s, input) => {
      if (input.actor.impersonatedBy) return 'signingWhileImpersonating';
      const signer = s.input.signers.find((g) => g.id === (input.signerId ?? input.actor.userId));
      if (!signer) return 'signerNotAdultMember';
      if (s.signedAt[signer.id]) return 'alreadySigned';
      return input.signatureKey ? null : 'emptySignature';
    },
    change: (s, input, ctx) => {
      s.signedAt[input.signerId ?? input.actor.userId] = ctx.now;
      if (allSigned(s)) s.stage = 'documents_signed_awaiting_approval';
    },
    // The signature is drawn on the TIC's signature page; the signed copy is recorded by the effect.
    effect: 'signTic',
    task: dueByDeadline,
  },
  Resubmit: {
    by: 'tenant',
    input: RECERT_INPUTS.Resubmit,
    when: (s) => tenantAt(s, 'returned_for_changes'),
    check: (s, input) => (input.reasons && input.reasons.length >= s.returnReasons.length ? null : 'reasonRequired'),
    change: (s) => {
      s.profileLocked = true;
      s.stage = 'pending_manager_review';
    },
    effect: 'lockProfile',
    task: dueByDeadline,
  },
  GenerateTIC: {
    by: 'manager',
    input: RECERT_INPUTS.GenerateTIC,
    when: (s) => (MANAGER_REVIEW.includes(s.stage) ? null : 'actionNotAllowedNow'),
    // A new TIC needs new signatures; its key is recorded by the effect once the PDF is stored.
    change: (s) => {
      s.signedAt = {};
      s.signedTic = null;
      s.stage = 'documents_submitted_pending_signature';
    },
    effect: 'generateTic',
    task: dueByDeadline,
  },
  Approve: {
    by: 'manager',
    input: RECERT_INPUTS.Approve,
    // Late completion: once expired the manager may complete from any stage.
    when: (s) => (s.expired || s.stage === 'documents_signed_awaiting_approval' || s.stage === 'pending_manager_review' ? null : 'actionNotAllowedNow'),
    change: (s, _input, ctx) => {
      s.stage = 'completed';
      s.approvedAt = ctx.now;
      s.profileLocked = false;
    },
    effect: 'unlockProfile',
    task: { ...dueByDeadline, when: (s) => s.stage !== 'action_needed' },
  },
  ReturnForChanges: {
    by: 'manager',
    input: RECERT_INPUTS.ReturnForChanges,
    when: (s) => ([...MANAGER_REVIEW, 'documents_signed_awaiting_approval'].includes(s.stage) ? null : 'actionNotAllowedNow'),
    check: (_s, input) => (input.reasons?.length ? null : 'reasonRequired'),
    change: (s, input) => {
      s.returnReasons = [...(input.reasons ?? [])];
      s.profileLocked = false;
      s.stage = 'returned_for_changes';
    },
    effect: 'unlockProfile',
  },
} satisfies ActionTable<RecertState, RecertInputs, 'tenant' | 'manager', RecertEffect> & Record<RecertTenantAction, { by: 'tenant' }> & Record<RecertManagerAction, { by: 'manager' }>;

export const RECERT_ACTIONS = actionsOf(RECERT_TABLE);
export const RECERT_TENANT_ACTIONS = RECERT_ACTIONS.filter((a): a is RecertTenantAction => RECERT_TABLE[a].by === 'tenant');
export const RECERT_MANAGER_ACTIONS = RECERT_ACTIONS.filter((a): a is RecertManagerAction => RECERT_TABLE[a].by === 'manager');
export const RecertTenantActionName = z.enum(RECERT_TENANT_ACTIONS as [RecertTenantAction, ...RecertTenantAction[]]);
export const RecertManagerActionName = z.enum(RECERT_MANAGER_ACTIONS as [RecertManagerAction, ...RecertManagerAction[]]);

export function recertFinished(s: Pick<RecertState, 'stage'>): MessageCode | null {
  return isFinal(s) ? 'recertificationCompleted' : null;
}
export const isFinalRecert = isFinal;

/**
 * The cycle's timers, set when it opens: the notices 120, 90, 60 and 30 days before the deadline
 * (each once, on its day; a day already past when the cycle opens is not sent late, except the
 * opening notice of the day the cycle starts) and the deadline itself.
 */
export function startRecertTimers(s: RecertState, ctx: ChangeContext): void {
  const deadline = Date.parse(deadlineAt(s));
  const now = Date.parse(ctx.now);
  for (const days of RECERT_NOTICE_DAYS) {
    const at = deadline - days * DAY;
    if (at > now - DAY) ctx.timer('Notice', new Date(at).toISOString(), `notice-${days}`);
  }
  ctx.timer('Expired', deadlineAt(s), 'deadline');
}

/** A timer of the cycle fired; returns the history note, or false when nothing changed. */
export function fireRecertTimer(s: RecertState, timer: CaseTimer, ctx: ChangeContext): boolean | string {
  const { caseId, tenantUserId, deadline } = s.input;
  if (timer.event === 'Notice') {
    const daysBefore = Number(timer.token.replace('notice-', ''));
    s.notices.push({ daysBefore, sentAt: ctx.now });
    ctx.notify({ userId: tenantUserId, template: 'recertification-notice', params: { daysBefore, deadline }, dedupeKey: `recert:${caseId}:notice-${daysBefore}` });
    return `${daysBefore}`;
  }
  if (timer.event === 'Expired' && !s.expired) {
    s.expired = true;
    ctx.notify({ userId: tenantUserId, template: 'recertification-expired', params: { daysBefore: 0, deadline }, dedupeKey: `recert:${caseId}:expired` });
    return true;
  }
  return false;
}

export function recertView(s: RecertState, now: number): RecertView {
  const available = availableActions(RECERT_TABLE, ['tenant', 'manager'], s, now, recertFinished);
  const status = recertStatus(s);
  return {
    caseId: s.input.caseId,
    householdId: s.input.householdId,
    organizationId: s.input.organizationId,
    tenantUserId: s.input.tenantUserId,
    kind: s.input.kind,
    deadline: s.input.deadline,
    startedAt: s.startedAt,
    stage: s.stage,
    status,
    profileLocked: s.profileLocked,
    ticGenerated: s.ticKey !== null,
    ticKey: s.ticKey,
    signedTic: s.signedTic ?? null,
    signers: s.input.signers.map((g) => ({ ...g, signedAt: s.signedAt[g.id] ?? null })),
    returnReasons: [...s.returnReasons],
    notices: [...s.notices],
    history: [...s.history],
    pendingTasks: tasksOf(RECERT_TABLE, available, s).map((t) => (t.role === 'manager' ? { ...t, overdue: status === 'expired' } : t)),
    availableActions: { tenant: available.tenant as RecertTenantAction[], manager: available.manager as RecertManagerAction[] },
    approvedAt: s.approvedAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}
