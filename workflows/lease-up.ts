import { getExternalWorkflowHandle, log, patched, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { ActorRole, LeaseUpInputs, LeaseUpView, StoredSignature, StartLeaseUpInput } from '../domain/lease-up';
import { initialLeaseUpState, type LeaseUpState } from '../domain/lease-up.state';
import { LEASE_UP_TABLE, leaseUpFinished, type LeaseUpEffect } from '../domain/lease-up.table';
import { fireLeaseUpTimer, leaseUpView } from '../domain/lease-up.view';
import { leaseUpSearchFacts } from '../domain/case-search';
import { runCase, type CaseDefinition } from './case/run';
import { CASE_KIT_PATCH, LEASE_UP_CURRENT_PATCH, LOCAL_ACTION_PROJECTION_PATCH, LOCAL_PROJECTION_PATCH, LOTTERY_LEASED_PATCH } from './case/version';
import { leaseUpMessages } from './lease-up.messages';
import { lotteryWorkflowId, placeReleasedBy } from '../domain/lottery';
import { lotteryMessages } from './lottery.messages';
import { leaseUpApplicationV1 } from './legacy/v1/lease-up';

type Activities = ReturnType<typeof createActivities>;

/** Database, blob and outbox writes: short and idempotent, so retried until PostgreSQL or storage answers. */
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * The same idempotent, version-guarded activities run inside the workflow task that asks for them
 * (no activity task, no further workflow task), retried the same way.
 */
const localActs = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** The signature an action carries: the table refuses the action without one, so this only narrows the type. */
function signatureOf(input: { signature?: StoredSignature }): StoredSignature {
  if (!input.signature) throw new TypeError('signature missing after validation');
  return input.signature;
}

/** Stamps a signer's image on the latest copy of a letter (each further signer signs the copy signed by the others). */
async function stamp(letter: NonNullable<LeaseUpState['leaseLetter']>, actorId: string, signature: StoredSignature, now: string) {
  const userId = signature.signerId ?? actorId;
  const signedKey = await acts.signLeaseUpLetter({
    letterKey: letter.signatures.at(-1)?.signedKey ?? letter.key,
    signatureKey: signature.signatureKey,
    signerName: signature.signerName,
    ipAddress: signature.ipAddress,
    signedAt: now,
    userId,
  });
  letter.signatures.push({ userId, signerName: signature.signerName, signedAt: now, ipAddress: signature.ipAddress, signedKey });
}

const leaseUpCase: CaseDefinition<LeaseUpState, LeaseUpInputs, ActorRole, LeaseUpView, LeaseUpEffect> = {
  table: LEASE_UP_TABLE,
  messages: leaseUpMessages,
  finished: leaseUpFinished,
  isFinal: (s) => leaseUpFinished(s) !== null,
  view: leaseUpView,
  fire: fireLeaseUpTimer,
  search: (_s, v) => leaseUpSearchFacts(v),
  project: (view) => acts.projectApplication(view),
  notify: (notice) => acts.sendNotice(notice),
  effects: {
    generateTic: async (s, _input, ctx) => {
      const key = await acts.generateLeaseUpLetter({ kind: 'tic', view: leaseUpView(s, Date.now()) });
      // The head of household and each adult member sign (workflows.md), read from the profile now.
      const signers = await acts.leaseUpTicSigners({ householdId: s.input.householdId, headUserId: s.input.applicantUserId, today: ctx.now.slice(0, 10) });
      s.tic = { key, generatedAt: ctx.now, signatures: [], signers };
    },
    generateLeaseLetter: async (s, _input, ctx) => {
      const key = await acts.generateLeaseUpLetter({ kind: 'lease', view: leaseUpView(s, Date.now()) });
      s.leaseLetter = { key, generatedAt: ctx.now, signatures: [] };
    },
    signTic: async (s, input: { actor: { userId: string }; signature?: StoredSignature }, ctx) => {
      if (s.tic) await stamp(s.tic, input.actor.userId, signatureOf(input), ctx.now);
    },
    signLeaseLetter: async (s, input: { actor: { userId: string }; signature?: StoredSignature }, ctx) => {
      if (s.leaseLetter) await stamp(s.leaseLetter, input.actor.userId, signatureOf(input), ctx.now);
    },
    markDocumentsRejected: async (s, input: { documents: { documentId?: string; reason?: string }[] }) => {
      if (input.documents.some((d) => d.documentId)) await acts.markDocumentsRejected({ householdId: s.input.householdId, documents: input.documents });
    },
  },
};

/** One lease-up application, from the invitation to the end of lease signing (spec section 4). */
export async function leaseUpApplication(input: StartLeaseUpInput): Promise<string> {
  // Runs started since LEASE_UP_CURRENT_PATCH take every earlier patch as recorded (one marker for
  // all); older runs ask each one, in the order they always did.
  // A case taken by the API (its log number, start time, first view and search attributes given,
  // `startedAt`; new since LEASE_UP_CURRENT_PATCH) is current without a marker: the input tells it,
  // so its first workflow task records nothing at all.
  const taken = input.startedAt !== undefined && input.logNumber !== undefined;
  const current = taken || patched(LEASE_UP_CURRENT_PATCH);
  // Runs started before the case kit replay the frozen version-1 code.
  if (!current && !patched(CASE_KIT_PATCH)) return leaseUpApplicationV1(input);
  // Invited from a lottery: once the household gives its place back, the lottery invites the next in
  // line; once its lease is signed, the lottery counts the unit leased (only cases started with
  // `lottery` do this, so earlier histories replay unchanged; the lease count came later, behind a patch).
  let released = false;
  // The start's log number and first projection run inside the start's workflow task; since the
  // later patch, so does each projection after an action (the answer waits for that one write, and a
  // Query or the next action no longer waits behind an activity task and a further workflow task).
  const startLocally = current || patched(LOCAL_PROJECTION_PATCH);
  const actionsLocally = current || (startLocally && patched(LOCAL_ACTION_PROJECTION_PATCH));
  let projections = 0;
  let leased = false;
  const tellLottery = async (signal: 'UnitReleased' | 'UnitLeased', args: object) => {
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
  const project = async (view: LeaseUpView) => {
    const first = projections++ === 0;
    await ((startLocally && first) || actionsLocally ? localActs : acts).projectApplication(view);
    if (!input.lottery) return;
    const why = released ? null : placeReleasedBy(view);
    if (why) {
      released = true;
      await tellLottery('UnitReleased', { why, ...(view.logNumber ? { logNumber: view.logNumber } : {}) });
    }
    if (!leased && view.status === 'ended' && (current || patched(LOTTERY_LEASED_PATCH))) {
      leased = true;
      await tellLottery('UnitLeased', {});
    }
  };
  // Taken by the API: the run starts from the state it projected and projects from the first action
  // on. Decided by the input, so every history replays.
  const initial = initialLeaseUpState(input, taken && input.startedAt ? input.startedAt : new Date(Date.now()).toISOString());
  const s = await runCase(
    { ...leaseUpCase, project },
    initial,
    taken
      ? { current, projected: initial.version, searchAtStart: true }
      : {
          current,
          start: async (state) => {
            state.logNumber ??= await (startLocally ? localActs : acts).issueLogNumber({ applicationId: input.applicationId });
          },
        },
  );
  log.info('lease-up application finished', { workflowId: workflowInfo().workflowId, status: s.status });
  return s.status;
}
