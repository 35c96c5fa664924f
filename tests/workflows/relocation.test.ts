import { refusal } from '../helpers/refusal';
import { recordHistory } from '../helpers/histories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { addMonthsUtc, type RelocationAction, type RelocationView, type StartRelocationInput } from '../../domain';
import type { AnyActionInput } from '../helpers/case-input';

type RelocationActionInput = AnyActionInput<'tenant' | 'manager'>;
import { getRelocationView, relocationUpdates } from '../../workflows/relocation.messages';
import { relocationId, relocationWorkflowId } from '../../infra/temporal/ids';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { HOUR, DAY } from '../../domain/time';

describe('relocation workflow (time skipping)', () => {
  let ts: Awaited<ReturnType<typeof startTimeSkippingEnv>>;
  beforeAll(async () => {
    ts = await startTimeSkippingEnv();
  }, 180_000);
  afterAll(() => ts?.close());

  const unit = { unitNumber: '7C', bedroomType: '2 bedrooms', address: '22 W 135th St, New York, NY 10037' };
  let input: StartRelocationInput;
  const tenant = (extra: Partial<RelocationActionInput> = {}): RelocationActionInput => ({ actor: { userId: input.tenantUserId, role: 'tenant', impersonatedBy: null }, ...extra });
  const manager = (extra: Partial<RelocationActionInput> = {}): RelocationActionInput => ({ actor: { userId: randomUUID(), role: 'manager', impersonatedBy: null }, ...extra });
  const send = (handle: WorkflowHandle, action: RelocationAction, i: RelocationActionInput): Promise<RelocationView> =>
    handle.executeUpdate(relocationUpdates[action], { args: [i as never] });
  async function until(handle: WorkflowHandle, check: (v: RelocationView) => boolean): Promise<RelocationView> {
    let view = await handle.query(getRelocationView);
    for (let i = 0; i < 200 && !check(view); i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await handle.query(getRelocationView);
    }
    if (!check(view)) throw new Error(`view never matched: ${JSON.stringify({ status: view.status, reminders: view.remindersSent, endsAt: view.endsAt })}`);
    return view;
  }
  /** Starts a relocation and takes it to the move (offers declined and accepted, slot booked). */
  async function moveIn(): Promise<{ handle: WorkflowHandle; view: RelocationView }> {
    const h = await ts.tenantHousehold();
    const id = relocationId(h.householdId, new Date(await ts.env.currentTimeMs()).toISOString().slice(0, 10));
    input = { relocationId: id, householdId: h.householdId, organizationId: h.organizationId, tenantUserId: h.userId, reason: 'Boiler replacement' };
    const handle = await ts.client.workflow.start('relocation', { workflowId: relocationWorkflowId(id), taskQueue: ts.taskQueue, args: [input] });
    expect(await refusal(send(handle, 'OfferTemporaryUnit', manager({ unit })))).toBe('actionNotAllowedNow');
    // The API reads the profile's completion and sends it: only a complete profile is accepted.
    expect(await refusal(send(handle, 'SubmitProfile', tenant({ profileCompletion: 80 })))).toBe('profileIncomplete');
    let view = await send(handle, 'SubmitProfile', tenant({ profileCompletion: 100 }));
    expect(view.status).toBe('awaiting_offer');
    view = await send(handle, 'OfferTemporaryUnit', manager({ unit }));
    const first = view.offers[0]!.offerId;
    expect(first).toBe(`${id}.1`);
    view = await send(handle, 'DeclineOffer', tenant({ offerId: first }));
    expect(view.status).toBe('awaiting_offer');
    view = await send(handle, 'OfferTemporaryUnit', manager({ unit: { ...unit, unitNumber: '8D' } }));
    // Declining is irreversible: the first offer can no longer be accepted.
    expect(await refusal(send(handle, 'AcceptOffer', tenant({ offerId: first })))).toBe('offerNotOpen');
    view = await send(handle, 'AcceptOffer', tenant({ offerId: view.offers[1]!.offerId }));
    expect(view.status).toBe('scheduling');
    expect(view.slots.length).toBe(20);
    expect(await refusal(send(handle, 'BookSlot', tenant({ slotId: 'nope' })))).toBe('slotNotAvailable');
    view = await send(handle, 'BookSlot', tenant({ slotId: view.slots[0]!.slotId }));
    expect(view.status).toBe('moving_booked');
    expect(await refusal(send(handle, 'ExtendRelocation', tenant({ until: '2099-01-01', reason: 'x' })))).toBe('forbidden');
    view = await send(handle, 'ConfirmMove', manager());
    expect(view).toMatchObject({ status: 'relocated', underRelocation: true });
    expect(view.endsAt).toBe(addMonthsUtc(view.movedAt!, 6));
    return { handle, view };
  }

  it('reaches its 6-month limit: reminders 30, 14 and 7 days before, then overdue and escalated; the manager confirms the return', async () => {
    const { handle, view: moved } = await moveIn();
    const endsAt = Date.parse(moved.endsAt!);
    await ts.env.sleep(endsAt - (await ts.env.currentTimeMs()) + HOUR);
    const view = await until(handle, (v) => v.status === 'overdue');
    expect(view.remindersSent.map((r) => r.daysBefore)).toEqual([30, 14, 7]);
    for (const r of view.remindersSent) expect(Math.abs(Date.parse(r.sentAt) - (endsAt - r.daysBefore * DAY))).toBeLessThan(60_000);
    const outbox = await ts.db.selectFrom('notification_outbox').select(['template', 'language']).where('user_id', '=', input.tenantUserId).orderBy('created_at').execute();
    expect(outbox.map((o) => o.template)).toEqual(['relocation-reminder', 'relocation-reminder', 'relocation-reminder', 'relocation-overdue']);
    const tasks = await ts.db.selectFrom('manager_tasks').selectAll().where('case_id', '=', input.relocationId).execute();
    expect(tasks.map((t) => [t.action, t.overdue])).toEqual([['ConfirmReturn', true]]);
    const done = await send(handle, 'ConfirmReturn', manager());
    expect(done).toMatchObject({ status: 'returned', underRelocation: false });
    expect(await handle.result()).toBe('returned');
    const row = await ts.db.selectFrom('relocation_cases').selectAll().where('id', '=', input.relocationId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'returned', under_relocation: false });
    await recordHistory('relocation-six-month-limit', handle);
  }, 120_000);

  it('is extended by a manager: the end moves, reminders restart for the new end, no overdue at the old end', async () => {
    const { handle, view: moved } = await moveIn();
    const oldEnd = Date.parse(moved.endsAt!);
    await ts.env.sleep(oldEnd - 10 * DAY - (await ts.env.currentTimeMs()));
    await until(handle, (v) => v.remindersSent.length === 2);
    const until_ = new Date(oldEnd + 60 * DAY).toISOString().slice(0, 10);
    expect(await refusal(send(handle, 'ExtendRelocation', manager({ until: new Date(oldEnd - 20 * DAY).toISOString().slice(0, 10), reason: 'Works delayed' })))).toBe('invalidExtension');
    let view = await send(handle, 'ExtendRelocation', manager({ until: until_, reason: 'Works delayed' }));
    expect(view.endsAt).toBe(`${until_}T23:59:59.999Z`);
    expect(view.extensions).toHaveLength(1);
    await ts.env.sleep(oldEnd - (await ts.env.currentTimeMs()) + 5 * DAY);
    view = await handle.query(getRelocationView);
    expect(view.status).toBe('relocated');
    const newEnd = Date.parse(view.endsAt!);
    await ts.env.sleep(newEnd - (await ts.env.currentTimeMs()) + HOUR);
    view = await until(handle, (v) => v.status === 'overdue');
    // Two reminders for the old end (30, 14), then all three for the new one.
    expect(view.remindersSent.map((r) => [r.daysBefore, r.endsAt === view.endsAt])).toEqual([[30, false], [14, false], [30, true], [14, true], [7, true]]);
    view = await send(handle, 'ConfirmReturn', manager());
    expect(await handle.result()).toBe('returned');
    await recordHistory('relocation-extended', handle);
  }, 120_000);
});
