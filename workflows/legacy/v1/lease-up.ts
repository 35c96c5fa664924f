import {
  allHandlersFinished,
  condition,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
  ApplicationFailure,
  log,
} from '@temporalio/workflow';
import type { createActivities } from '../../../activities';
import { ActionInput, FINAL_STATUSES, LeaseUpActionName, MESSAGES, type LeaseUpAction, type StartLeaseUpInput } from './domain';
import { getLeaseUpView, leaseUpUpdates } from './lease-up.messages';
import { LeaseUpState, type TimerRequest } from './lease-up.state';

type Activities = ReturnType<typeof createActivities>;

/** Database and blob writes: short, idempotent, so retried until Postgres or storage answers. */
const { projectApplication, issueLogNumber, generateLeaseUpLetter, signLeaseUpLetter, notifyApplicant, markDocumentsRejected, leaseUpTicSigners } =
  proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const nowIso = () => new Date(Date.now()).toISOString();

/** Timers and letters arrived after the first recorded histories; old runs replay without them. */
const TIMERS_PATCH = 'lease-up-timers-and-letters';
const PROJECT_FINAL_PATCH = 'lease-up-project-final-view';
const TIC_SIGNERS_PATCH = 'lease-up-tic-adult-signers';

/** One lease-up application, from apply to the end of lease signing (spec section 4). */
export async function leaseUpApplicationV1(input: StartLeaseUpInput): Promise<string> {
  const state = new LeaseUpState(input, nowIso());

  /** A durable timer; when it fires, the state decides whether what it guarded still stands. */
  const arm = (timer: TimerRequest) => {
    void sleep(Math.max(0, Date.parse(timer.at) - Date.now())).then(() => {
      if (state.fire(timer, nowIso())) afterChange();
    });
  };
  const afterChange = () => {
    const timers = state.drainTimers();
    if (timers.length > 0 && patched(TIMERS_PATCH)) timers.forEach(arm);
    for (const notice of state.drainNotices()) {
      void notifyApplicant({ applicationId: input.applicationId, userId: input.applicantUserId, ...notice });
    }
  };

  /** Letters: the PDF is made and stored by an activity, then recorded in the state. */
  const letters = async (action: LeaseUpAction, actionInput: ActionInput) => {
    const kind = action === 'SignTIC' || action === 'GenerateIncomeCertification' ? 'tic' : 'lease';
    if (action === 'GenerateIncomeCertification' || action === 'ApproveIncomeCertification') {
      const key = await generateLeaseUpLetter({ kind, view: state.view(Date.now()) });
      // Runs from before this patch kept one signature for the TIC; newer ones list every adult.
      const signers =
        kind === 'tic' && patched(TIC_SIGNERS_PATCH)
          ? await leaseUpTicSigners({ householdId: input.householdId, headUserId: input.applicantUserId, today: nowIso().slice(0, 10) })
          : undefined;
      state.setLetter(kind, key, nowIso(), signers);
    } else if ((action === 'SignTIC' || action === 'SignLeaseLetter') && actionInput.signature) {
      const letter = kind === 'tic' ? state.tic! : state.leaseLetter!;
      const signedAt = nowIso();
      const signedKey = await signLeaseUpLetter({
        // Each further signer (an adult member) signs the copy already signed by the others.
        letterKey: letter.signatures.at(-1)?.signedKey ?? letter.key,
        signatureKey: actionInput.signature.signatureKey,
        signerName: actionInput.signature.signerName,
        ipAddress: actionInput.signature.ipAddress,
        signedAt,
        userId: actionInput.signature.signerId ?? actionInput.actor.userId,
      });
      state.addSignature(kind, { userId: actionInput.signature.signerId ?? actionInput.actor.userId, signerName: actionInput.signature.signerName, signedAt, ipAddress: actionInput.signature.ipAddress, signedKey }, nowIso());
    }
  };

  for (const name of LeaseUpActionName.options) {
    setHandler(
      leaseUpUpdates[name],
      async (actionInput) => {
        state.apply(name, actionInput, nowIso());
        afterChange();
        if (['GenerateIncomeCertification', 'ApproveIncomeCertification', 'SignTIC', 'SignLeaseLetter'].includes(name)) {
          await letters(name, actionInput);
        }
        // Rejected documents are marked in the household's documents, for re-upload.
        if (name === 'RejectDocuments' && actionInput.documents?.some((d) => d.documentId)) {
          await markDocumentsRejected({ householdId: input.householdId, documents: actionInput.documents });
        }
        return state.view(Date.now());
      },
      {
        validator: (actionInput) => {
          const parsed = ActionInput.safeParse(actionInput);
          if (!parsed.success) throw ApplicationFailure.create({ type: 'validation', message: parsed.error.issues[0]?.message ?? 'Invalid input', nonRetryable: true });
          const code = state.refusal(name, parsed.data, Date.now());
          if (code) throw ApplicationFailure.create({ type: code, message: MESSAGES[code], nonRetryable: true });
          if ((name === 'SignTIC' || name === 'SignLeaseLetter') && !parsed.data.signature) {
            throw ApplicationFailure.create({ type: 'signatureRequired', message: MESSAGES.signatureRequired, nonRetryable: true });
          }
        },
      },
    );
  }
  setHandler(getLeaseUpView, () => state.view(Date.now()));

  state.logNumber = await issueLogNumber({ applicationId: input.applicationId });
  state.touch(nowIso());

  // Project every new version to the read model; finish once a final status is projected.
  let projected = 0;
  for (;;) {
    await condition(() => state.version > projected);
    const view = state.view(Date.now());
    await projectApplication(view);
    projected = view.version;
    if (FINAL_STATUSES.includes(view.status)) break;
    // The state may have become final while this (older) view was being written: runs started
    // before this patch stopped there; newer runs go round once more and write the final view.
    if (state.isFinal && !patched(PROJECT_FINAL_PATCH)) break;
  }
  await condition(allHandlersFinished);
  log.info('lease-up application finished', { workflowId: workflowInfo().workflowId, status: state.status });
  return state.status;
}
