import { refusal } from '../helpers/refusal';
import { recordHistory } from '../helpers/histories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { LeaseUpAction, StartLeaseUpInput } from '../../domain';
import type { AnyActionInput as ActionInput } from '../helpers/case-input';
import { getLeaseUpView, leaseUpUpdates } from '../../workflows/lease-up.messages';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { startWorkflowEnv } from '../helpers/workflow-env';

type Env = Awaited<ReturnType<typeof startWorkflowEnv>>;

describe('lease-up workflow', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startWorkflowEnv();
  });
  afterAll(() => env?.close());

  let lastInput: StartLeaseUpInput;
  async function start(): Promise<WorkflowHandle> {
    const input = (lastInput = await env.applicationInput());
    return env.client.workflow.start('leaseUpApplication', {
      workflowId: leaseUpWorkflowId(input.applicationId),
      taskQueue: env.taskQueue,
      args: [input],
    });
  }
  const applicant = (): ActionInput => ({ actor: { userId: randomUUID(), role: 'applicant', impersonatedBy: null } });
  const manager = (reason?: string): ActionInput => ({ actor: { userId: randomUUID(), role: 'manager', impersonatedBy: null }, ...(reason ? { reason } : {}) });
  const send = (handle: WorkflowHandle, action: LeaseUpAction, input: ActionInput) =>
    handle.executeUpdate(leaseUpUpdates[action], { args: [input as never] });


  it('validators refuse what the current step does not allow, and change nothing', async () => {
    const handle = await start();
    // Wait for the log number, so the only possible change below would come from a refused action.
    let before = await handle.query(getLeaseUpView);
    while (!before.logNumber) before = await handle.query(getLeaseUpView);
    expect(await refusal(send(handle, 'MarkAsComplete', manager()))).toBe('profileNotSubmitted');
    expect(await refusal(send(handle, 'ProvideConsentForScreening', applicant()))).toBe('actionNotAllowedNow');
    expect(await refusal(send(handle, 'RejectApplication', manager('No')))).toBe('actionNotAllowedNow');
    // A message naming the wrong actor role is refused even if the API were bypassed.
    expect(await refusal(send(handle, 'SubmitProfile', manager()))).toBe('forbidden');
    expect(await refusal(handle.executeUpdate(leaseUpUpdates.SubmitProfile, { args: [{ actor: { role: 'applicant' } } as never] }))).toBe('validation');
    const after = await handle.query(getLeaseUpView);
    expect(after.version).toBe(before.version);
    expect(after.history).toHaveLength(before.history.length);
  });

  it('takes consent for screening to the decision, then rejection with a reason', async () => {
    const handle = await start();
    await send(handle, 'RequestConsentForScreening', manager());
    let view = await handle.query(getLeaseUpView);
    expect(view.currentStep).toBe('screening_consent');
    expect(view.availableActions.applicant).toEqual(expect.arrayContaining(['ProvideConsentForScreening', 'DenyConsentForScreening']));
    view = await send(handle, 'DenyConsentForScreening', applicant());
    expect(view).toMatchObject({ currentStep: 'decision', consent: 'denied' });
    expect(view.timeline.find((t) => t.step === 'screening_consent')?.state).toBe('complete');
    expect(view.timeline.find((t) => t.step === 'additional_documents')?.state).toBe('skipped');
    view = await send(handle, 'RejectApplication', manager('Income above the range for the household size'));
    expect(view).toMatchObject({ status: 'rejected', rejectionReason: 'Income above the range for the household size' });
    expect(view.availableActions.manager).toEqual([]);
    await recordHistory('lease-up-consent-denied-rejected', handle);
  });

  it('a withdrawn application ends the workflow and refuses every later action', async () => {
    const handle = await start();
    await send(handle, 'SubmitProfile', applicant());
    const view = await send(handle, 'Withdraw', applicant());
    expect(view.status).toBe('withdrawn');
    expect(await handle.result()).toBe('withdrawn');
    const row = await env.db.selectFrom('applications').selectAll().where('id', '=', view.applicationId).executeTakeFirstOrThrow();
    expect(row.status).toBe('withdrawn');
  });

  it('keeps personal data out of the Temporal history (encrypting payload codec)', async () => {
    const handle = await start();
    await send(handle, 'SubmitProfile', applicant());
    await send(handle, 'Withdraw', applicant());
    await handle.result();
    const history = await handle.fetchHistory();
    // Every payload in the history (input, update arguments and results, activity data) is
    // encrypted: none of it decodes as JSON, and the household's figures never appear.
    const payloads = collectPayloads(history);
    expect(payloads.length).toBeGreaterThan(5);
    for (const payload of payloads) {
      expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe('binary/encrypted');
    }
    const raw = Buffer.concat(payloads.map((p) => Buffer.from(p.data ?? []))).toString('latin1');
    expect(raw).not.toContain('61234');
    expect(raw).not.toContain(lastInput.householdId);
    expect(raw).not.toContain(lastInput.applicantUserId);
    // The local activities' bookkeeping names activities and times only.
    const bookkeeping = (history.events ?? []).flatMap((e) =>
      e.markerRecordedEventAttributes?.markerName === 'core_local_activity' ? (e.markerRecordedEventAttributes.details?.data?.payloads ?? []) : [],
    );
    expect(bookkeeping.length).toBeGreaterThan(0);
    for (const payload of bookkeeping) {
      const text = Buffer.from(payload.data ?? []).toString();
      expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(expect.arrayContaining(['activity_id', 'activity_type', 'seq']));
      for (const secret of ['61234', lastInput.householdId, lastInput.applicantUserId]) expect(text).not.toContain(secret);
    }
    await recordHistory('lease-up-withdrawn-projected-after-answer', handle);
  });
});

interface RawPayload {
  metadata?: Record<string, Uint8Array> | null;
  data?: Uint8Array | null;
}

/** Every payload object anywhere in a history (they sit at many depths of the event attributes). */
function collectPayloads(value: unknown, found: RawPayload[] = []): RawPayload[] {
  if (!value || typeof value !== 'object') return found;
  // `patched()` writes a marker and the TemporalChangeVersion search attribute: both hold only the
  // patch's name, written by the SDK core (not through the codec), never application data.
  if ('markerName' in value && (value as { markerName?: string }).markerName === 'core_patch') return found;
  // A local activity's marker (the start's log number, each projection) holds the
  // activity's result, through the codec like any result, and the core's own bookkeeping in
  // `details.data` (sequence, activity type, times): that one is checked apart, in the test below.
  if ('markerName' in value && (value as { markerName?: string }).markerName === 'core_local_activity') {
    const { data: _bookkeeping, ...details } = (value as { details?: Record<string, unknown> }).details ?? {};
    return collectPayloads(details, found);
  }
  if ('metadata' in value && 'data' in value && (value as RawPayload).metadata?.encoding) {
    found.push(value as RawPayload);
    return found;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key !== 'upsertWorkflowSearchAttributesEventAttributes') collectPayloads(child, found);
  }
  return found;
}
