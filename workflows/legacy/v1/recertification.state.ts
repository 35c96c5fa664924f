import {
  RECERT_MANAGER_ACTIONS,
  RECERT_TENANT_ACTIONS,
  type MessageCode,
  type RecertAction,
  type RecertActionInput,
  type RecertHistoryEntry,
  type RecertManagerAction,
  type RecertNotice,
  type RecertStage,
  type RecertStatus,
  type RecertTenantAction,
  type RecertView,
  type StartRecertificationInput,
} from './domain';

const MANAGER_REVIEW: readonly RecertStage[] = ['under_manager_review', 'pending_manager_review'];

/**
 * One recertification cycle and the rules of shared/design/workflows.md "Recertification".
 * Pure: no I/O and no clock; the workflow passes its deterministic time in.
 */
export class RecertificationState {
  stage: RecertStage = 'action_needed';
  expired = false;
  profileLocked = false;
  ticKey: string | null = null;
  returnReasons: string[] = [];
  approvedAt: string | null = null;
  readonly signedAt = new Map<string, string>();
  readonly notices: RecertNotice[] = [];
  readonly history: RecertHistoryEntry[] = [];
  version = 1;
  updatedAt: string;

  constructor(
    readonly input: StartRecertificationInput,
    readonly startedAt: string,
  ) {
    this.updatedAt = startedAt;
    this.history.push({ at: startedAt, action: 'Start', by: 'system', ...(input.reason ? { note: input.reason } : {}) });
  }

  get status(): RecertStatus {
    if (this.stage === 'completed') return 'completed';
    return this.expired ? 'expired' : 'active';
  }

  get isFinal(): boolean {
    return this.stage === 'completed';
  }

  /** Why `action` may not be taken now by this actor, or null when it may. */
  refusal(action: RecertAction, input: RecertActionInput): MessageCode | null {
    if (input.actor.role !== roleOf(action)) return 'forbidden';
    if (this.isFinal) return 'recertificationCompleted';
    // After the deadline only the manager acts (section 8: the tenant contacts the managing agent).
    if (this.expired && input.actor.role === 'tenant') return 'recertificationDeadlineEnded';
    switch (action) {
      case 'ConfirmProfile':
        return this.stage === 'action_needed' ? null : 'actionNotAllowedNow';
      case 'SubmitProfile':
        return this.stage === 'action_needed' ? null : 'actionNotAllowedNow';
      case 'SubmitDocuments':
        return this.stage === 'profile_complete' ? null : 'actionNotAllowedNow';
      case 'GenerateTIC':
        return MANAGER_REVIEW.includes(this.stage) ? null : 'actionNotAllowedNow';
      case 'SignTIC': {
        if (input.actor.impersonatedBy) return 'signingWhileImpersonating';
        if (this.stage !== 'documents_submitted_pending_signature') return this.ticKey ? 'actionNotAllowedNow' : 'ticNotGeneratedYet';
        const signer = this.input.signers.find((s) => s.id === (input.signerId ?? input.actor.userId));
        if (!signer) return 'signerNotAdultMember';
        if (this.signedAt.has(signer.id)) return 'alreadySigned';
        return input.signatureKey ? null : 'emptySignature';
      }
      case 'Approve':
        // Late completion: once expired the manager may complete from any stage.
        if (this.expired) return null;
        return this.stage === 'documents_signed_awaiting_approval' || this.stage === 'pending_manager_review' ? null : 'actionNotAllowedNow';
      case 'ReturnForChanges':
        if (!input.reasons?.length) return 'reasonRequired';
        return [...MANAGER_REVIEW, 'documents_signed_awaiting_approval'].includes(this.stage) ? null : 'actionNotAllowedNow';
      case 'Resubmit':
        if (this.stage !== 'returned_for_changes') return 'actionNotAllowedNow';
        return input.reasons && input.reasons.length >= this.returnReasons.length ? null : 'reasonRequired';
    }
  }

  /** Applies an action the validator accepted (the workflow has run its side effects first). */
  apply(action: RecertAction, input: RecertActionInput, now: string, effect: { ticKey?: string } = {}): void {
    switch (action) {
      case 'ConfirmProfile':
      case 'SubmitProfile':
        this.profileLocked = true;
        this.stage = 'profile_complete';
        break;
      case 'SubmitDocuments':
        this.stage = 'under_manager_review';
        break;
      case 'GenerateTIC':
        this.ticKey = effect.ticKey ?? null;
        this.signedAt.clear();
        this.stage = 'documents_submitted_pending_signature';
        break;
      case 'SignTIC':
        this.signedAt.set(input.signerId ?? input.actor.userId, now);
        if (this.input.signers.every((s) => this.signedAt.has(s.id))) this.stage = 'documents_signed_awaiting_approval';
        break;
      case 'Approve':
        this.stage = 'completed';
        this.approvedAt = now;
        this.profileLocked = false;
        break;
      case 'ReturnForChanges':
        this.returnReasons = [...(input.reasons ?? [])];
        this.profileLocked = false;
        this.stage = 'returned_for_changes';
        break;
      case 'Resubmit':
        this.profileLocked = true;
        this.stage = 'pending_manager_review';
        break;
    }
    const note = input.reasons?.join('; ');
    this.history.push({ at: now, action, by: input.actor.role, ...(note ? { note } : {}) });
    this.touch(now);
  }

  noticeSent(daysBefore: number, now: string): void {
    this.notices.push({ daysBefore, sentAt: now });
    this.history.push({ at: now, action: 'Notice', by: 'system', note: `${daysBefore}` });
    this.touch(now);
  }

  expire(now: string): void {
    this.expired = true;
    this.history.push({ at: now, action: 'Expired', by: 'system' });
    this.touch(now);
  }

  touch(now: string): void {
    this.updatedAt = now;
    this.version += 1;
  }

  availableActions(): RecertView['availableActions'] {
    const probe = (role: 'tenant' | 'manager', signerId?: string): RecertActionInput => ({
      actor: { userId: this.input.tenantUserId, role, impersonatedBy: null },
      reasons: this.returnReasons.length ? this.returnReasons : ['probe'],
      signerId,
      signatureKey: 'probe',
    });
    const tenant = RECERT_TENANT_ACTIONS.filter((a): a is RecertTenantAction =>
      a === 'SignTIC'
        ? this.input.signers.some((s) => this.refusal(a, probe('tenant', s.id)) === null)
        : this.refusal(a, probe('tenant')) === null,
    );
    const manager = RECERT_MANAGER_ACTIONS.filter((a): a is RecertManagerAction => this.refusal(a, probe('manager')) === null);
    return { tenant, manager };
  }

  view(): RecertView {
    const available = this.availableActions();
    const deadlineAt = `${this.input.deadline}T00:00:00.000Z`;
    return {
      caseId: this.input.caseId,
      householdId: this.input.householdId,
      organizationId: this.input.organizationId,
      tenantUserId: this.input.tenantUserId,
      kind: this.input.kind,
      deadline: this.input.deadline,
      startedAt: this.startedAt,
      stage: this.stage,
      status: this.status,
      profileLocked: this.profileLocked,
      ticGenerated: this.ticKey !== null,
      ticKey: this.ticKey,
      signers: this.input.signers.map((s) => ({ ...s, signedAt: this.signedAt.get(s.id) ?? null })),
      returnReasons: [...this.returnReasons],
      notices: [...this.notices],
      history: [...this.history],
      pendingTasks: [
        // SubmitProfile is the update path of the same choice as ConfirmProfile: one task, not two.
        ...available.tenant.filter((a) => a !== 'SubmitProfile').map((action) => ({ role: 'tenant' as const, action, dueAt: deadlineAt })),
        ...available.manager
          .filter((a) => a !== 'ReturnForChanges' && (a !== 'Approve' || this.stage !== 'action_needed'))
          .map((action) => ({ role: 'manager' as const, action, dueAt: deadlineAt })),
      ],
      availableActions: available,
      approvedAt: this.approvedAt,
      updatedAt: this.updatedAt,
      version: this.version,
    };
  }
}

export function roleOf(action: RecertAction): 'tenant' | 'manager' {
  return (RECERT_TENANT_ACTIONS as readonly string[]).includes(action) ? 'tenant' : 'manager';
}
