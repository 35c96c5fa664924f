import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowHandle } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { AUTO_CLOSE_DAYS, type StartSupportTicketInput, type SupportTicketAction, type SupportTicketRole, type SupportTicketView } from '../../domain';
import { createKeyRing } from '../../infra/crypto';
import { openJson, useDataKeys } from '../../infra/data-keys';
import { findTemplate } from '../../infra/notifications/templates';
import { supportTicketWorkflowId } from '../../infra/temporal/ids';
import { getSupportTicketView, supportTicketUpdates } from '../../workflows/support-ticket.messages';
import { recordHistory } from '../helpers/histories';
import { refusal } from '../helpers/refusal';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';
import { HOUR, DAY } from '../../domain/time';

/**
 * A support ticket (design/workflows.md "Support ticket") on the time-skipping server:
 * escalation when the first answer is late, auto-close of a resolved ticket, and a reply that
 * reopens it (the auto-close of the earlier resolution then no longer counts).
 */
describe('support ticket workflow (time skipping)', () => {
  let ts: Awaited<ReturnType<typeof startTimeSkippingEnv>>;
  let managerId: string;
  let adminId: string;
  beforeAll(async () => {
    // The projection seals the subject and the thread with the data key, as the worker does.
    useDataKeys(createKeyRing(HISTORY_FIXTURE_KEY));
    ts = await startTimeSkippingEnv();
    managerId = (await ts.db.selectFrom('users').select('id').where('username', '=', 'manager').executeTakeFirstOrThrow()).id;
    adminId = (await ts.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
  }, 180_000);
  afterAll(() => ts?.close());

  const as = (role: SupportTicketRole, userId: string) => ({ actor: { userId, role, impersonatedBy: null } });
  const send = (handle: WorkflowHandle, action: SupportTicketAction, input: object): Promise<SupportTicketView> =>
    handle.executeUpdate(supportTicketUpdates[action] as UpdateDefinition<SupportTicketView, [object]>, { args: [input] });
  async function until(handle: WorkflowHandle, check: (v: SupportTicketView) => boolean): Promise<SupportTicketView> {
    let view = await handle.query(getSupportTicketView);
    for (let i = 0; i < 200 && !check(view); i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await handle.query(getSupportTicketView);
    }
    if (!check(view)) throw new Error(`view never matched: ${JSON.stringify({ status: view.status, escalated: view.escalated })}`);
    return view;
  }
  const notices = async (userId: string) =>
    (await ts.db.selectFrom('notification_outbox').select(['template', 'params', 'language']).where('user_id', '=', userId).where('template', '=', 'support-ticket').orderBy('created_at').execute()).map((n) => ({
      event: (typeof n.params === 'string' ? JSON.parse(n.params) : n.params).event as string,
      language: n.language,
    }));
  const row = (ticketId: string) => ts.db.selectFrom('support_tickets').selectAll().where('id', '=', ticketId).executeTakeFirstOrThrow();

  async function opened(): Promise<{ handle: WorkflowHandle; input: StartSupportTicketInput; requester: ReturnType<typeof as>; staff: ReturnType<typeof as> }> {
    const h = await ts.tenantHousehold();
    const input: StartSupportTicketInput = {
      ticketId: randomUUID(),
      requesterUserId: h.userId,
      requesterKind: 'resident',
      householdId: h.householdId,
      organizationId: h.organizationId,
      category: 'documents',
      subject: 'No puedo subir mi talón de pago',
      message: 'La página no acepta mi archivo PDF.',
      case: null,
      staffUserIds: [managerId],
      adminUserIds: [adminId],
      createdAt: new Date(await ts.env.currentTimeMs()).toISOString(),
    };
    const handle = await ts.client.workflow.start('supportTicket', { workflowId: supportTicketWorkflowId(input.ticketId), taskQueue: ts.taskQueue, args: [input] });
    return { handle, input, requester: as('requester', h.userId), staff: as('staff', managerId) };
  }

  it('escalates to the admins when nobody answers in 2 business days; a reply reopens a resolved ticket; it closes 7 days after the last resolution', async () => {
    const { handle, input, requester, staff } = await opened();
    let view = await handle.query(getSupportTicketView);
    expect(view).toMatchObject({ status: 'awaiting_staff', escalated: false, availableActions: { requester: ['Reply'], staff: ['Answer', 'Assign', 'Resolve'] } });
    // The projection writes the ticket with its subject and thread sealed.
    await expect.poll(async () => (await row(input.ticketId)).state_version).toBe(1);
    const stored = await row(input.ticketId);
    expect(JSON.stringify(stored)).not.toContain('talón');
    expect(openJson<SupportTicketView>(stored.view).messages[0]!.body).toBe(input.message);

    // Each side's own actions only; empty text is refused by the validator.
    expect(await refusal(send(handle, 'Answer', { ...requester, message: 'hola' }))).toBe('forbidden');
    expect(await refusal(send(handle, 'Reply', { ...staff, message: 'hola' }))).toBe('forbidden');
    expect(await refusal(send(handle, 'Answer', { ...staff, message: '   ' }))).toBe('validation');

    // Just before the first answer is due: nothing; past it: escalated once, admins told.
    const due = Date.parse(view.firstAnswerDueAt);
    await ts.env.sleep(due - (await ts.env.currentTimeMs()) - HOUR);
    expect((await handle.query(getSupportTicketView)).escalated).toBe(false);
    await ts.env.sleep(2 * HOUR);
    expect((await until(handle, (v) => v.escalated)).escalatedAt).not.toBeNull();
    expect(await notices(adminId)).toEqual([{ event: 'escalated', language: 'en' }]);
    await expect.poll(async () => (await row(input.ticketId)).escalated).toBe(true);

    // The manager answers (the requester is told in Spanish), then resolves.
    view = await send(handle, 'Answer', { ...staff, message: 'Intente con un archivo de menos de 10 MB.' });
    expect(view.status).toBe('awaiting_requester');
    expect(await notices(input.requesterUserId)).toEqual([{ event: 'answered', language: 'es' }]);
    view = await send(handle, 'Resolve', { ...staff, note: 'Resuelto por teléfono.' });
    expect(view).toMatchObject({ status: 'resolved', availableActions: { requester: ['Reply'], staff: ['Assign'] } });
    expect(await refusal(send(handle, 'Answer', { ...staff, message: 'más' }))).toBe('supportTicketResolved');
    const firstClose = Date.parse(view.closesAt!);
    expect(firstClose - Date.parse(view.resolvedAt!)).toBe(AUTO_CLOSE_DAYS * DAY);

    // Three days later the requester writes again: reopened, the staff are told.
    await ts.env.sleep(3 * DAY);
    view = await send(handle, 'Reply', { ...requester, message: 'Sigue sin funcionar.' });
    expect(view).toMatchObject({ status: 'awaiting_staff', reopenCount: 1, closesAt: null });
    expect((await notices(managerId)).map((n) => n.event)).toEqual(['replied']);
    // The first resolution's close time passes without effect.
    await ts.env.sleep(firstClose - (await ts.env.currentTimeMs()) + HOUR);
    expect((await handle.query(getSupportTicketView)).status).toBe('awaiting_staff');

    // Resolved again; 7 days without a reply close it and the run ends.
    expect((await send(handle, 'Resolve', { ...staff })).status).toBe('resolved');
    await ts.env.sleep(AUTO_CLOSE_DAYS * DAY + HOUR);
    expect(await handle.result()).toBe('closed');
    await expect.poll(async () => (await row(input.ticketId)).status).toBe('closed');
    expect(openJson<SupportTicketView>((await row(input.ticketId)).view).messages.map((m) => m.side)).toEqual(['requester', 'staff', 'staff', 'requester']);
    await recordHistory('support-ticket-escalated-reopened-closed', handle);

    // Every message of the ticket reads in the four languages, with its link.
    for (const language of ['en', 'es', 'zh', 'bn'] as const) {
      for (const event of ['answered', 'replied', 'resolved', 'escalated'] as const) {
        const message = findTemplate('support-ticket')!.render(language, { event, ticketId: input.ticketId, ticketRef: 'ABCD1234', audience: event === 'answered' || event === 'resolved' ? 'requester' : 'staff' }, { baseUrl: 'http://portal.test' });
        expect(message.text, `${language} ${event}`).toContain('ABCD1234');
        expect(message.text).toContain(`http://portal.test/${event === 'answered' || event === 'resolved' ? 'support-ticket' : 'manager/support-ticket'}/${input.ticketId}`);
      }
    }
  });

  it('does not escalate a ticket answered in time, and assigning sends the requester reply to the assignee only', async () => {
    const { handle, input, requester, staff } = await opened();
    await send(handle, 'Answer', { ...staff, message: 'Recibido.' });
    await send(handle, 'Assign', { ...staff, assigneeUserId: adminId });
    await ts.env.sleep(Date.parse((await handle.query(getSupportTicketView)).firstAnswerDueAt) - (await ts.env.currentTimeMs()) + HOUR);
    await send(handle, 'Reply', { ...requester, message: 'Gracias.' });
    const view = await handle.query(getSupportTicketView);
    expect(view).toMatchObject({ escalated: false, assigneeUserId: adminId, status: 'awaiting_staff' });
    const toAdmin = await ts.db.selectFrom('notification_outbox').select('params').where('user_id', '=', adminId).where('template', '=', 'support-ticket').execute();
    expect(toAdmin.map((n) => (typeof n.params === 'string' ? JSON.parse(n.params) : n.params).ticketId).filter((id) => id === input.ticketId)).toHaveLength(1);
    const toManager = await ts.db.selectFrom('notification_outbox').select('params').where('user_id', '=', managerId).where('template', '=', 'support-ticket').execute();
    expect(toManager.map((n) => (typeof n.params === 'string' ? JSON.parse(n.params) : n.params).ticketId)).not.toContain(input.ticketId);
    await handle.terminate('test done');
  });
});
