import { log, workflowInfo } from '@temporalio/workflow';
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
import { slowWork, writes } from './activity-proxies';
import { recertificationMessages } from './recertification.messages';

const recertificationCase: CaseDefinition<RecertState, RecertInputs, 'tenant' | 'manager', RecertView, RecertEffect> = {
  table: RECERT_TABLE,
  messages: recertificationMessages,
  finished: recertFinished,
  isFinal: isFinalRecert,
  view: recertView,
  fire: fireRecertTimer,
  search: (_s, v) => ({ kind: 'recertification', organizationId: v.organizationId, status: v.status, step: v.stage, overdue: anyOverdue(v.pendingTasks) }),
  project: (view) => writes.projectRecertification(view),
  notify: (notice) => writes.sendNotice(notice),
  note: (input: { reasons?: string[] }) => input.reasons?.join('; ') || undefined,
  effects: {
    lockProfile: async (s) => {
      await writes.lockProfile({ householdId: s.input.householdId, reason: 'recertification', workflowId: workflowInfo().workflowId });
    },
    unlockProfile: async (s) => {
      await writes.unlockProfile({ householdId: s.input.householdId });
    },
    generateTic: async (s) => {
      const { caseId, householdId, signers, deadline } = s.input;
      s.ticKey = (await slowWork.generateRecertificationTic({ caseId, householdId, signers, deadline })).key;
    },
    signTic: async (s, input: { actor: { userId: string }; signerId?: string; signatureKey?: string; ipAddress?: string }, ctx) => {
      if (!s.ticKey || !input.signatureKey) return;
      const signerId = input.signerId ?? input.actor.userId;
      s.signedTic = await slowWork.signRecertificationTic({
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
  const s = await runCase(recertificationCase, initialRecertState(input, new Date(Date.now()).toISOString()), { start: startRecertTimers });
  log.info('recertification finished', { workflowId: workflowInfo().workflowId, stage: s.stage });
  return s.stage;
}
