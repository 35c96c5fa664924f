import { ApplicationFailure, condition, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../../../activities';
import { MESSAGES, RECERT_NOTICE_DAYS, RecertActionInput, RecertActionName, type MessageCode, type StartRecertificationInput } from './domain';
import { getRecertificationView, recertificationUpdates } from './recertification.messages';
import { RecertificationState } from './recertification.state';

type Activities = ReturnType<typeof createActivities>;

/** Database writes, outbox inserts and the TIC PDF: short and idempotent, so retried until they succeed. */
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const DAY = 86_400_000;
const nowIso = () => new Date(Date.now()).toISOString();
const refuse = (code: MessageCode | 'validation', message?: string) =>
  ApplicationFailure.create({ type: code, message: message ?? (code === 'validation' ? 'Invalid input' : MESSAGES[code]), nonRetryable: true });

/**
 * One recertification cycle of a tenant household (spec section 4, shared/design/workflows.md):
 * notices 120/90/60/30 days before the deadline, the tenant's confirm-or-update choice (locks the
 * profile), documents, TIC generation and signatures, manager approval or return for changes, and
 * expiry at the deadline (the manager can still complete late).
 */
export async function recertificationV1(input: StartRecertificationInput): Promise<string> {
  const state = new RecertificationState(input, nowIso());
  const deadlineMs = Date.parse(`${input.deadline}T00:00:00.000Z`);
  const workflowId = workflowInfo().workflowId;
  // One action at a time: a handler that awaits an activity must not interleave with another.
  let busy = false;

  for (const name of RecertActionName.options) {
    setHandler(
      recertificationUpdates[name],
      async (actionInput) => {
        await condition(() => !busy);
        busy = true;
        try {
          const code = state.refusal(name, actionInput); // re-checked: the state may have moved since validation
          if (code) throw refuse(code);
          const effect: { ticKey?: string } = {};
          if (name === 'ConfirmProfile' || name === 'SubmitProfile' || name === 'Resubmit') {
            await acts.lockProfile({ householdId: input.householdId, reason: 'recertification', workflowId });
          } else if (name === 'ReturnForChanges' || name === 'Approve') {
            await acts.unlockProfile({ householdId: input.householdId });
          } else if (name === 'GenerateTIC') {
            effect.ticKey = (await acts.generateRecertificationTic({ caseId: input.caseId, householdId: input.householdId, signers: input.signers, deadline: input.deadline })).key;
          }
          state.apply(name, actionInput, nowIso(), effect);
          return state.view();
        } finally {
          busy = false;
        }
      },
      {
        validator: (actionInput) => {
          const parsed = RecertActionInput.safeParse(actionInput);
          if (!parsed.success) throw refuse('validation', parsed.error.issues[0]?.message);
          const code = state.refusal(name, parsed.data);
          if (code) throw refuse(code);
        },
      },
    );
  }
  setHandler(getRecertificationView, () => state.view());

  // Notices: each once, on its day; a day already past when the cycle opens is not sent late
  // (except the opening notice of the day the cycle starts).
  const notices = (async () => {
    for (const days of RECERT_NOTICE_DAYS) {
      const at = deadlineMs - days * DAY;
      if (at <= Date.now() - DAY) continue;
      if (at > Date.now() && (await condition(() => state.isFinal, at - Date.now()))) return;
      if (state.isFinal) return;
      await acts.sendRecertificationNotice({ caseId: input.caseId, tenantUserId: input.tenantUserId, template: 'recertification-notice', daysBefore: days, deadline: input.deadline });
      state.noticeSent(days, nowIso());
    }
  })();

  const deadline = (async () => {
    const remaining = deadlineMs - Date.now();
    const completed = remaining > 0 ? await condition(() => state.isFinal, remaining) : state.isFinal;
    if (completed) return;
    state.expire(nowIso());
    await acts.sendRecertificationNotice({ caseId: input.caseId, tenantUserId: input.tenantUserId, template: 'recertification-expired', daysBefore: 0, deadline: input.deadline });
  })();

  // Project every new version; finish once completion is projected.
  let projected = 0;
  for (;;) {
    await condition(() => state.version > projected && !busy);
    const view = state.view();
    await acts.projectRecertification(view);
    projected = view.version;
    // The projected view, not the live state: an action may have finished the case meanwhile.
    if (view.status === 'completed') break;
  }
  await Promise.all([notices, deadline]);
  log.info('recertification finished', { workflowId, status: state.status });
  return state.status;
}
