import { log, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { RecertInputs, RecertView, StartRecertificationInput } from '../domain/recertification';
import {
  RECERT_TABLE,
  fireRecertTimer,
  initialRecertState,
  isFinalRecert,
  recertFinished,
  recertView,
  startRecertTimers,
  type RecertEffect,
  type RecertState,
} from '../domain/recertification.table';
import { anyOverdue } from '../domain/case-search';
import { runCase, type CaseDefinition } from './case/run';
import { CASE_KIT_PATCH, TIC_SIGNATURE_PATCH } from './case/version';
import { recertificationMessages } from './recertification.messages';
import { recertificationV1 } from './legacy/v1/recertification';

type Activities = ReturnType<typeof createActivities>;

/** Database writes, outbox inserts and the TIC PDF: short and idempotent, so retried until they succeed. */
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const recertificationCase: CaseDefinition<RecertState, RecertInputs, 'tenant' | 'manager', RecertView, RecertEffect> = {
  table: RECERT_TABLE,
  messages: recertificationMessages,
  finished: recertFinished,
  isFinal: isFinalRecert,
  view: recertView,
  fire: fireRecertTimer,
  search: (_s, v) => ({ kind: 'recertification', organizationId: v.organizationId, status: v.status, step: v.stage, overdue: anyOverdue(v.pendingTasks) }),
  project: (view) => acts.projectRecertification(view),
  notify: (notice) => acts.sendNotice(notice),
  note: (input: { reasons?: string[] }) => input.reasons?.join('; ') || undefined,
  effects: {
    lockProfile: async (s) => {
      await acts.lockProfile({ householdId: s.input.householdId, reason: 'recertification', workflowId: workflowInfo().workflowId });
    },
    unlockProfile: async (s) => {
      await acts.unlockProfile({ householdId: s.input.householdId });
    },
    generateTic: async (s) => {
      const { caseId, householdId, signers, deadline } = s.input;
      s.ticKey = (await acts.generateRecertificationTic({ caseId, householdId, signers, deadline })).key;
    },
    signTic: async (s, input: { actor: { userId: string }; signerId?: string; signatureKey?: string; ipAddress?: string }, ctx) => {
      // Runs signed before signatures were drawn on the TIC keep the image beside it (replay unchanged).
      if (!patched(TIC_SIGNATURE_PATCH) || !s.ticKey || !input.signatureKey) return;
      const signerId = input.signerId ?? input.actor.userId;
      s.signedTic = await acts.signRecertificationTic({
        caseId: s.input.caseId,
        letterKey: s.signedTic?.key ?? s.ticKey,
        signatureKey: input.signatureKey,
        signerId,
        signerName: s.input.signers.find((g) => g.id === signerId)?.name ?? '',
        signedAt: ctx.now,
        ipAddress: input.ipAddress ?? '',
      });
    },
  },
};

/**
 * One recertification cycle of a tenant household (spec section 4, shared/design/workflows.md):
 * notices 120/90/60/30 days before the deadline, the tenant's confirm-or-update choice (locks the
 * profile), documents, TIC generation and signatures, manager approval or return for changes, and
 * expiry at the deadline (the manager can still complete late).
 */
export async function recertification(input: StartRecertificationInput): Promise<string> {
  // Runs started before the case kit replay the frozen version-1 code.
  if (!patched(CASE_KIT_PATCH)) return recertificationV1(input);
  const s = await runCase(recertificationCase, initialRecertState(input, new Date(Date.now()).toISOString()), { start: startRecertTimers });
  log.info('recertification finished', { workflowId: workflowInfo().workflowId, stage: s.stage });
  return s.stage;
}
