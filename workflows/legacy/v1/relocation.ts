import { ApplicationFailure, condition, log, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../../../activities';
import { MESSAGES, RELOCATION_REMINDER_DAYS, RelocationActionInput, RelocationActionName, type MessageCode, type StartRelocationInput } from './domain';
import { getRelocationView, relocationUpdates } from './relocation.messages';
import { RelocationState } from './relocation.state';

type Activities = ReturnType<typeof createActivities>;

/** Read-model writes and outbox inserts: short and idempotent, so retried until they succeed. */
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const DAY = 86_400_000;
const nowIso = () => new Date(Date.now()).toISOString();
const refuse = (code: MessageCode | 'validation', message?: string) =>
  ApplicationFailure.create({ type: code, message: message ?? (code === 'validation' ? 'Invalid input' : MESSAGES[code]), nonRetryable: true });

/**
 * One temporary relocation (spec sections 1 and 9: up to 6 months): profile, temporary unit offers,
 * moving slot, the move, a durable end timer with reminders 30, 14 and 7 days before the end,
 * extension by a manager only, the return home, and escalation when the end passes.
 */
export async function relocationV1(input: StartRelocationInput): Promise<string> {
  const state = new RelocationState(input, nowIso());

  for (const name of RelocationActionName.options) {
    setHandler(
      relocationUpdates[name],
      (actionInput) => {
        state.apply(name, actionInput, nowIso());
        return state.view(nowIso());
      },
      {
        validator: (actionInput) => {
          const parsed = RelocationActionInput.safeParse(actionInput);
          if (!parsed.success) throw refuse('validation', parsed.error.issues[0]?.message);
          const code = state.refusal(name, parsed.data, nowIso());
          if (code) throw refuse(code);
        },
      },
    );
  }
  setHandler(getRelocationView, () => state.view(nowIso()));

  // The end timer: restarted whenever the end date changes (move confirmed, extension granted).
  const endTimer = (async () => {
    await condition(() => state.endEpoch > 0 || state.isFinal);
    while (!state.isFinal) {
      const epoch = state.endEpoch;
      const changed = () => state.isFinal || state.endEpoch !== epoch;
      const endsAt = Date.parse(state.endsAt!);
      let interrupted = false;
      for (const days of RELOCATION_REMINDER_DAYS) {
        const at = endsAt - days * DAY;
        if (at <= Date.now()) continue;
        if (await condition(changed, at - Date.now())) {
          interrupted = true;
          break;
        }
        await acts.sendRelocationNotice({ relocationId: input.relocationId, tenantUserId: input.tenantUserId, template: 'relocation-reminder', daysBefore: days, endsAt: state.endsAt! });
        state.reminderSent(days, nowIso());
      }
      if (interrupted) continue;
      if (endsAt > Date.now() && (await condition(changed, endsAt - Date.now()))) continue;
      if (state.status !== 'overdue') {
        state.markOverdue(nowIso());
        await acts.sendRelocationNotice({ relocationId: input.relocationId, tenantUserId: input.tenantUserId, template: 'relocation-overdue', daysBefore: 0, endsAt: state.endsAt! });
      }
      await condition(changed);
    }
  })();

  let projected = 0;
  for (;;) {
    await condition(() => state.version > projected);
    const view = state.view(nowIso());
    await acts.projectRelocation(view);
    projected = view.version;
    // The projected view, not the live state: an action may have finished the case meanwhile.
    if (view.status === 'returned') break;
  }
  await endTimer;
  log.info('relocation finished', { workflowId: workflowInfo().workflowId, status: state.status });
  return state.status;
}
