import { getExternalWorkflowHandle, log, patched, workflowInfo } from '@temporalio/workflow';
import type { ActorRole, LeaseUpEffect, LeaseUpView, StartLeaseUpInput } from '../domain/lease-up';
import type { LeaseUpInputs, StoredSignature } from '../domain/lease-up.inputs';
import { initialLeaseUpState, type LeaseUpState } from '../domain/lease-up.state';
import { LEASE_UP_TABLE, leaseUpFinished } from '../domain/lease-up.table';
import { fireLeaseUpTimer, leaseUpView } from '../domain/lease-up.view';
import { leaseUpSearchFacts } from '../domain/case-search';
import { lotteryWorkflowId, placeReleasedBy } from '../domain/lottery';
import { localWrites, slowWork, writes } from './activity-proxies';
import { runCase, type CaseDefinition, type RunOptions } from './case/run';
import { leaseUpMessages } from './lease-up.messages';
import { lotteryMessages } from './lottery.messages';

/** The signature an action carries: the table refuses the action without one, so this only narrows the type. */
function signatureOf(input: { signature?: StoredSignature }): StoredSignature {
  if (!input.signature) throw new TypeError('signature missing after validation');
  return input.signature;
}

/** Stamps a signer's image on the latest copy of a letter (each further signer signs the copy signed by the others). */
async function stamp(letter: NonNullable<LeaseUpState['leaseLetter']>, actorId: string, signature: StoredSignature, now: string) {
  const userId = signature.signerId ?? actorId;
  const signedKey = await slowWork.signLeaseUpLetter({
    letterKey: letter.signatures.at(-1)?.signedKey ?? letter.key,
    signatureKey: signature.signatureKey,
    signerName: signature.signerName,
    ipAddress: signature.ipAddress,
    signedAt: now,
    userId,
  });
  letter.signatures.push({ userId, signerName: signature.signerName, signedAt: now, ipAddress: signature.ipAddress, signedKey });
}

type SignedInput = { actor: { userId: string }; signature?: StoredSignature };

const NOTICES_ADDED = new Set(['lease-up-offer-made', 'lease-up-appeal-granted', 'lease-up-appeal-denied']);
const NOTICES_ADDED_PATCH = 'lease-up-offer-and-appeal-notices';
const PROJECTION_AFTER_ANSWER_PATCH = 'lease-up-projection-after-answer';

const leaseUpCase: CaseDefinition<LeaseUpState, LeaseUpInputs, ActorRole, LeaseUpView, LeaseUpEffect> = {
  table: LEASE_UP_TABLE,
  messages: leaseUpMessages,
  finished: leaseUpFinished,
  isFinal: (s) => leaseUpFinished(s) !== null,
  view: leaseUpView,
  fire: fireLeaseUpTimer,
  search: (_s, v) => leaseUpSearchFacts(v),
  // The API writes an action's answered view itself before it answers (api/services/case-kinds.ts),
  // so the Update's answer waits for no write here: this projection is an ordinary activity after
  // the answer, the safety net that lands the view if the API died between the answer and its write,
  // and the writer of changes no API call made (timers, signals). Runs from before recorded it as a
  // local activity inside the workflow task, and replay them so.
  project: (view) => (patched(PROJECTION_AFTER_ANSWER_PATCH) ? writes.projectApplication(view) : localWrites.projectApplication(view)),
  // The offer and appeal-decision notices came after cases were already running: a run replaying
  // such a change from before has no marker in its history and sends nothing, as it did then.
  notify: (notice) => (NOTICES_ADDED.has(notice.template) && !patched(NOTICES_ADDED_PATCH) ? Promise.resolve() : writes.sendNotice(notice)),
  effects: {
    generateTic: async (s, _input, ctx) => {
      const key = await slowWork.generateLeaseUpLetter({ kind: 'tic', view: leaseUpView(s, Date.now()) });
      // The head of household and each adult member sign (workflows.md), read from the profile now.
      const signers = await writes.leaseUpTicSigners({ householdId: s.input.householdId, headUserId: s.input.applicantUserId, today: ctx.now.slice(0, 10) });
      s.tic = { key, generatedAt: ctx.now, signatures: [], signers };
    },
    generateLeaseLetter: async (s, _input, ctx) => {
      const key = await slowWork.generateLeaseUpLetter({ kind: 'lease', view: leaseUpView(s, Date.now()) });
      s.leaseLetter = { key, generatedAt: ctx.now, signatures: [] };
    },
    signTic: async (s, input: SignedInput, ctx) => {
      if (s.tic) await stamp(s.tic, input.actor.userId, signatureOf(input), ctx.now);
    },
    signLeaseLetter: async (s, input: SignedInput, ctx) => {
      if (s.leaseLetter) await stamp(s.leaseLetter, input.actor.userId, signatureOf(input), ctx.now);
    },
    markDocumentsRejected: async (s, input: { documents: { documentId?: string; reason?: string }[] }) => {
      if (input.documents.some((d) => d.documentId)) await writes.markDocumentsRejected({ householdId: s.input.householdId, documents: input.documents });
    },
  },
};

/**
 * The projection of a case a lottery invited, which also keeps the lottery told: once the household
 * gives its place back, the lottery invites the next in line; once its lease is signed, the lottery
 * counts the unit leased (and closes when every unit is). Each is said once.
 */
function projectTellingLottery(input: StartLeaseUpInput): (view: LeaseUpView) => Promise<void> {
  let released = false;
  let leased = false;
  const tell = async (signal: 'UnitReleased' | 'UnitLeased', args: object) => {
    try {
      await getExternalWorkflowHandle(lotteryWorkflowId(input.opportunityId)).signal(lotteryMessages.signals[signal]!, {
        actor: { userId: 'system', role: 'system', impersonatedBy: null },
        applicationId: input.applicationId,
        ...args,
      } as never);
    } catch (error) {
      // The lottery has closed: nobody is waiting for the place.
      log.warn('lottery not told of its case', { applicationId: input.applicationId, signal, error: String(error) });
    }
  };
  return async (view) => {
    await leaseUpCase.project(view);
    const why = released ? null : placeReleasedBy(view);
    if (why) {
      released = true;
      await tell('UnitReleased', { why, ...(view.logNumber ? { logNumber: view.logNumber } : {}) });
    }
    if (!leased && view.status === 'ended') {
      leased = true;
      await tell('UnitLeased', {});
    }
  };
}

/**
 * One lease-up application, from the invitation to the end of lease signing (spec section 4). Two
 * ways in: a first-come application the API took (its log number and `startedAt` in the input, its
 * first view projected and its search attributes given with the start), which starts from that
 * state and records nothing in its first workflow task; or a household a lottery invited, whose run
 * issues the log number its row lacks and projects its first view itself.
 */
export async function leaseUpApplication(input: StartLeaseUpInput): Promise<string> {
  const { startedAt } = input;
  const firstCome = startedAt !== undefined && input.logNumber !== undefined;
  const initial = initialLeaseUpState(input, firstCome ? startedAt : new Date(Date.now()).toISOString());
  const options: RunOptions<LeaseUpState> = firstCome
    ? { projectedAtStart: true }
    : {
        start: async (s) => {
          s.logNumber ??= await localWrites.issueLogNumber({ applicationId: input.applicationId });
        },
      };
  const s = await runCase({ ...leaseUpCase, ...(input.lottery ? { project: projectTellingLottery(input) } : {}) }, initial, options);
  log.info('lease-up application finished', { workflowId: workflowInfo().workflowId, status: s.status });
  return s.status;
}
