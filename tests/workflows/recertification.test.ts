import type { UpdateDefinition } from '@temporalio/common';
import { refusal } from '../helpers/refusal';
import { recordHistory } from '../helpers/histories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { RecertAction, RecertView, StartRecertificationInput } from '../../domain';
import type { AnyActionInput } from '../helpers/case-input';

type RecertActionInput = AnyActionInput<'tenant' | 'manager'>;
import { getRecertificationView, recertificationUpdates } from '../../workflows/recertification.messages';
import { recertificationCaseId, recertificationWorkflowId } from '../../infra/temporal/ids';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { eventually } from '../helpers/stack';
import { dueAnnualRecertifications } from '../../infra/db/repositories/recertification-cycle';
import { HOUR, DAY } from '../../domain/time';

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('recertification workflow (time skipping)', () => {
  let ts: Awaited<ReturnType<typeof startTimeSkippingEnv>>;
  beforeAll(async () => {
    ts = await startTimeSkippingEnv();
  }, 180_000);
  afterAll(() => ts?.close());

  async function start(kind: 'annual' | 'interim', deadline: string, household?: Awaited<ReturnType<typeof ts.tenantHousehold>>) {
    const h = household ?? (await ts.tenantHousehold());
    const member = randomUUID();
    const input: StartRecertificationInput = {
      caseId: recertificationCaseId(h.householdId, `${kind}:${deadline}`),
      householdId: h.householdId,
      organizationId: h.organizationId,
      tenantUserId: h.userId,
      kind,
      deadline,
      signers: [
        { id: h.userId, name: 'Head Tenant', isHead: true },
        { id: member, name: 'Adult Member', isHead: false },
      ],
    };
    const handle = await ts.client.workflow.start('recertification', { workflowId: recertificationWorkflowId(input.caseId), taskQueue: ts.taskQueue, args: [input] });
    return { handle, input, member, household: h };
  }
  const tenant = (input: StartRecertificationInput, extra: Partial<RecertActionInput> = {}): RecertActionInput => ({
    actor: { userId: input.tenantUserId, role: 'tenant', impersonatedBy: null },
    ...extra,
  });
  const manager = (extra: Partial<RecertActionInput> = {}): RecertActionInput => ({ actor: { userId: randomUUID(), role: 'manager', impersonatedBy: null }, ...extra });
  const send = (handle: WorkflowHandle, action: RecertAction, input: RecertActionInput): Promise<RecertView> =>
    handle.executeUpdate(recertificationUpdates[action] as UpdateDefinition<RecertView, [never]>, { args: [input as never] });
  async function until(handle: WorkflowHandle, check: (v: RecertView) => boolean): Promise<RecertView> {
    let view = await handle.query(getRecertificationView);
    for (let i = 0; i < 200 && !check(view); i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await handle.query(getRecertificationView);
    }
    if (!check(view)) throw new Error(`view never matched: ${JSON.stringify({ stage: view.stage, status: view.status, notices: view.notices, now: new Date(await ts.env.currentTimeMs()) })}`);
    return view;
  }
  // A 1x1 PNG stored where the API would store the drawn signature: the workflow draws it on the TIC.
  const signature = async (key: string) => {
    await ts.blobs.put(key, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'), 'image/png');
    return key;
  };
  const locked = async (householdId: string) =>
    (await ts.db.selectFrom('profile_locks').select('household_id').where('household_id', '=', householdId).executeTakeFirst()) !== undefined;
  it('runs a whole annual cycle: notices once on their days, confirm and lock, signing, return and resubmission, approval', async () => {
    const t0 = await ts.env.currentTimeMs();
    const deadline = isoDay(t0 + 120 * DAY);
    const deadlineMs = Date.parse(`${deadline}T00:00:00Z`);
    const { handle, input, member, household } = await start('annual', deadline);

    let view = await until(handle, (v) => v.notices.length === 1);
    expect(view.notices[0]!.daysBefore).toBe(120);
    expect(view.availableActions.tenant).toEqual(expect.arrayContaining(['ConfirmProfile', 'SubmitProfile']));

    view = await send(handle, 'ConfirmProfile', tenant(input));
    expect(view).toMatchObject({ stage: 'profile_complete', profileLocked: true });
    expect(await locked(household.householdId)).toBe(true);
    // Irreversible: a second confirmation (or the update path) is refused and changes nothing.
    expect(await refusal(send(handle, 'ConfirmProfile', tenant(input)))).toBe('actionNotAllowedNow');
    expect(await refusal(send(handle, 'SignTIC', tenant(input, { signatureKey: 'k' })))).toBe('ticNotGeneratedYet');

    view = await send(handle, 'SubmitDocuments', tenant(input));
    expect(view.stage).toBe('under_manager_review');
    expect(await refusal(send(handle, 'Approve', manager()))).toBe('actionNotAllowedNow');
    view = await send(handle, 'GenerateTIC', manager());
    expect(view.stage).toBe('documents_submitted_pending_signature');
    expect((await ts.blobs.get(view.ticKey!))?.contentType).toBe('application/pdf');

    expect(await refusal(send(handle, 'SignTIC', { actor: { userId: input.tenantUserId, role: 'tenant', impersonatedBy: randomUUID() }, signatureKey: 'k' }))).toBe('signingWhileImpersonating');
    expect(await refusal(send(handle, 'SignTIC', tenant(input, { signerId: randomUUID(), signatureKey: 'k' })))).toBe('signerNotAdultMember');
    expect(await refusal(send(handle, 'SignTIC', tenant(input)))).toBe('emptySignature');
    view = await send(handle, 'SignTIC', tenant(input, { signatureKey: await signature('sig-head') }));
    expect(view.stage).toBe('documents_submitted_pending_signature');
    expect(await refusal(send(handle, 'SignTIC', tenant(input, { signatureKey: 'again' })))).toBe('alreadySigned');
    view = await send(handle, 'SignTIC', tenant(input, { signerId: member, signatureKey: await signature('sig-member') }));
    expect(view.stage).toBe('documents_signed_awaiting_approval');
    // The record is the TIC with both signatures drawn on it, its SHA-256 kept with the case.
    const signed = await ts.blobs.get(view.signedTic!.key);
    expect(createHash('sha256').update(signed!.body).digest('hex')).toBe(view.signedTic!.sha256);

    expect(await refusal(send(handle, 'ReturnForChanges', manager()))).toBe('reasonRequired');
    view = await send(handle, 'ReturnForChanges', manager({ reasons: ['Pay stub for March is missing'] }));
    expect(view).toMatchObject({ stage: 'returned_for_changes', profileLocked: false, returnReasons: ['Pay stub for March is missing'] });
    expect(await locked(household.householdId)).toBe(false);
    view = await send(handle, 'Resubmit', tenant(input, { reasons: ['Uploaded the March pay stub'] }));
    expect(view.stage).toBe('pending_manager_review');
    expect(await locked(household.householdId)).toBe(true);

    // Time passes: the 90, 60 and 30 day notices each go out once, on their day, in Spanish.
    await ts.env.sleep(deadlineMs - 30 * DAY - (await ts.env.currentTimeMs()) + HOUR);
    view = await until(handle, (v) => v.notices.length === 4);
    expect(view.notices.map((n) => n.daysBefore)).toEqual([120, 90, 60, 30]);
    for (const notice of view.notices.slice(1)) {
      expect(Math.abs(Date.parse(notice.sentAt) - (deadlineMs - notice.daysBefore * DAY))).toBeLessThan(60_000);
    }
    const outbox = await ts.db.selectFrom('notification_outbox').selectAll().where('user_id', '=', input.tenantUserId).orderBy('created_at').execute();
    expect(outbox.map((o) => o.dedupe_key)).toEqual([120, 90, 60, 30].map((d) => `recert:${input.caseId}:notice-${d}`));
    expect(new Set(outbox.map((o) => o.language))).toEqual(new Set(['es']));

    view = await send(handle, 'GenerateTIC', manager());
    expect(view.signers.every((s) => s.signedAt === null)).toBe(true);
    await send(handle, 'SignTIC', tenant(input, { signatureKey: await signature('sig-head-2') }));
    await send(handle, 'SignTIC', tenant(input, { signerId: member, signatureKey: await signature('sig-member-2') }));
    view = await send(handle, 'Approve', manager());
    expect(view).toMatchObject({ stage: 'completed', status: 'completed' });
    expect(view.approvedAt).not.toBeNull();
    expect(await handle.result()).toBe('completed');
    const row = await ts.db.selectFrom('recertification_cases').selectAll().where('id', '=', input.caseId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ stage: 'completed', status: 'completed', tenant_signed: true, state_version: view.version });
    const tasks = await ts.db.selectFrom('manager_tasks').select('id').where('case_id', '=', input.caseId).execute();
    expect(tasks).toHaveLength(0);
    await recordHistory('recertification-annual-cycle', handle);
  }, 120_000);

  it('expires when the deadline passes: the tenant is told to contact the managing agent, the manager completes late', async () => {
    const t0 = await ts.env.currentTimeMs();
    const deadline = isoDay(t0 + 45 * DAY);
    const { handle, input } = await start('annual', deadline);
    await until(handle, (v) => v.stage === 'action_needed');
    // No notice of a day already past when the cycle opened (120, 90, 60); the 30-day one comes on its day.
    await ts.env.sleep(Date.parse(`${deadline}T00:00:00Z`) - t0 + HOUR);
    let view = await until(handle, (v) => v.status === 'expired');
    expect(view.notices.map((n) => n.daysBefore)).toEqual([30]);
    expect(await refusal(send(handle, 'ConfirmProfile', tenant(input)))).toBe('recertificationDeadlineEnded');
    expect(view.availableActions.tenant).toEqual([]);
    expect(view.availableActions.manager).toContain('Approve');
    const expired = await ts.db.selectFrom('notification_outbox').select('template').where('dedupe_key', '=', `recert:${input.caseId}:expired`).executeTakeFirst();
    expect(expired?.template).toBe('recertification-expired');
    const task = await ts.db.selectFrom('manager_tasks').selectAll().where('case_id', '=', input.caseId).execute();
    expect(task.every((t) => t.overdue)).toBe(true);
    view = await send(handle, 'Approve', manager());
    expect(view.status).toBe('completed');
    expect(await handle.result()).toBe('completed');
    await recordHistory('recertification-expired', handle);
  }, 120_000);

  it('runs an interim recertification beside the annual one of the same household', async () => {
    const t0 = await ts.env.currentTimeMs();
    const household = await ts.tenantHousehold();
    const annual = await start('annual', isoDay(t0 + 100 * DAY), household);
    const interim = await start('interim', isoDay(t0 + 60 * DAY), household);
    expect(interim.input.caseId).not.toBe(annual.input.caseId);
    await send(interim.handle, 'ConfirmProfile', tenant(interim.input));
    await send(interim.handle, 'SubmitDocuments', tenant(interim.input));
    const [a, i] = await Promise.all([annual.handle.query(getRecertificationView), interim.handle.query(getRecertificationView)]);
    expect(i.stage).toBe('under_manager_review');
    expect(a.stage).toBe('action_needed');
    // Bounded in real time, failing with what it waited for (not by the test's own time-out).
    const rows = await eventually(async () => {
      const r = await ts.db.selectFrom('recertification_cases').select(['kind', 'stage']).where('household_id', '=', household.householdId).orderBy('kind').execute();
      return r.length === 2 && r[1]!.stage === 'under_manager_review' ? r : null;
    }, 30_000, "the interim case projected 'under_manager_review' beside the annual one");
    expect(rows).toEqual([{ kind: 'annual', stage: 'action_needed' }, { kind: 'interim', stage: 'under_manager_review' }]);
    await annual.handle.terminate('test over');
    await interim.handle.terminate('test over');
  }, 60_000);
  it('the daily sweep opens an annual cycle when it enters the 120-day window, once', async () => {
    const household = await ts.tenantHousehold();
    const now = await ts.env.currentTimeMs();
    const anniversaryIn = (days: number) => {
      const anniversary = new Date(now + days * DAY);
      anniversary.setUTCFullYear(anniversary.getUTCFullYear() - 1);
      return ts.db.updateTable('tenancies').set({ lease_start: isoDay(anniversary.getTime()) }).where('household_id', '=', household.householdId).execute();
    };
    // Which households are due is decided by the sweep's activity: not at 121 days, yes at 119.
    await anniversaryIn(121.5);
    expect(await dueAnnualRecertifications(ts.db, { now, householdId: household.householdId })).toEqual([]);
    await anniversaryIn(119.5);
    const due = await dueAnnualRecertifications(ts.db, { now, householdId: household.householdId });
    expect(due.map((d) => d.input.deadline)).toEqual([isoDay(now + 119.5 * DAY)]);

    // The sweep opens that cycle; a second sweep (or the next day's run) finds it open and adds none.
    const cases = () => ts.db.selectFrom('recertification_cases').select(['id', 'deadline']).where('household_id', '=', household.householdId).execute();
    const sweeps = [];
    const expected = [{ id: due[0]!.input.caseId, deadline: isoDay(now + 119.5 * DAY) }];
    for (let run = 0; run < 2; run++) {
      const sweep = await ts.client.workflow.start('recertificationSweep', { workflowId: `sweep-${randomUUID()}`, taskQueue: ts.taskQueue, args: [] });
      sweeps.push(sweep);
      // A sweep has made its day's starts once it waits for the next day: its timer is the barrier
      // for the second sweep's (refused) start; the first's case row comes from the case it started.
      await eventually(async () => {
        const history = await sweep.fetchHistory();
        return (history.events ?? []).some((event) => event.timerStartedEventAttributes);
      }, 30_000, `sweep ${run + 1} waiting for its next day`);
      if (run === 0) await eventually(async () => (await cases()).length > 0, 30_000, 'the opened cycle projected');
      expect(await cases()).toEqual(expected);
    }
    await recordHistory('recertification-sweep', sweeps[0]!);
    for (const sweep of sweeps) await sweep.terminate('test over');
  });
});
