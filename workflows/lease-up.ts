import { condition, proxyActivities, setHandler, workflowInfo, ApplicationFailure, log } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { ActionInput, LeaseUpActionName, MESSAGES, type StartLeaseUpInput } from '../domain';
import { getLeaseUpView, leaseUpUpdates } from './lease-up.messages';
import { LeaseUpState } from './lease-up.state';

type Activities = ReturnType<typeof createActivities>;

/** Database writes: short, idempotent, so retried until Postgres answers. */
const { projectApplication, issueLogNumber } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const nowIso = () => new Date(Date.now()).toISOString();

/** One lease-up application, from apply to the end of lease signing (spec section 4). */
export async function leaseUpApplication(input: StartLeaseUpInput): Promise<string> {
  const state = new LeaseUpState(input, nowIso());

  for (const name of LeaseUpActionName.options) {
    setHandler(
      leaseUpUpdates[name],
      (actionInput) => {
        state.apply(name, actionInput, nowIso());
        return state.view();
      },
      {
        validator: (actionInput) => {
          const parsed = ActionInput.safeParse(actionInput);
          if (!parsed.success) throw ApplicationFailure.create({ type: 'validation', message: parsed.error.issues[0]?.message ?? 'Invalid input', nonRetryable: true });
          const code = state.refusal(name, parsed.data);
          if (code) throw ApplicationFailure.create({ type: code, message: MESSAGES[code], nonRetryable: true });
        },
      },
    );
  }
  setHandler(getLeaseUpView, () => state.view());

  state.logNumber = await issueLogNumber({ applicationId: input.applicationId });
  state.touch(nowIso());

  // Project every new version to the read model; finish once a final status is projected.
  let projected = 0;
  for (;;) {
    await condition(() => state.version > projected);
    const view = state.view();
    await projectApplication(view);
    projected = view.version;
    if (state.isFinal) break;
  }
  log.info('lease-up application finished', { workflowId: workflowInfo().workflowId, status: state.status });
  return state.status;
}
