import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowHandle } from '@temporalio/client';
import { ACCESS_NOTICE_DAYS_BEFORE, type AccessGrantAction, type AccessGrantCaseView, type AccessGrantRole, type StartAccessGrantInput } from '../../domain';
import { findTemplate } from '../../infra/notifications/templates';
import { accessGrantWorkflowId } from '../../infra/temporal/ids';
import { accessGrantUpdates, getAccessGrantView } from '../../workflows/access-grant.messages';
import { recordHistory } from '../helpers/histories';
import { refusal } from '../helpers/refusal';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { HOUR, DAY } from '../../domain/time';

const PERIOD_DAYS = 90;

/**
 * A granted delegated access on the time-skipping server: the notice before the end,
 * the expiry at the end, an extension that moves both, and an end by the organisation.
 */
describe('delegated access grant workflow (time skipping)', () => {
  let ts: Awaited<ReturnType<typeof startTimeSkippingEnv>>;
  beforeAll(async () => {
    ts = await startTimeSkippingEnv();
  }, 180_000);
  afterAll(() => ts?.close());

  const as = (role: AccessGrantRole, userId: string) => ({ actor: { userId, role, impersonatedBy: null } });
  const send = (handle: WorkflowHandle, action: AccessGrantAction, input: ReturnType<typeof as>): Promise<AccessGrantCaseView> =>
    handle.executeUpdate(accessGrantUpdates[action], { args: [input as never] });
  async function until(handle: WorkflowHandle, check: (v: AccessGrantCaseView) => boolean): Promise<AccessGrantCaseView> {
    let view = await handle.query(getAccessGrantView);
    for (let i = 0; i < 200 && !check(view); i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await handle.query(getAccessGrantView);
    }
    if (!check(view)) throw new Error(`view never matched: ${JSON.stringify({ status: view.status, notices: view.noticesSent, expiresAt: view.expiresAt })}`);
    return view;
  }
  const row = (grantId: string) => ts.db.selectFrom('access_grants').selectAll().where('id', '=', grantId).executeTakeFirstOrThrow();
  const notices = async (userId: string) =>
    (await ts.db.selectFrom('notification_outbox').select(['template', 'params', 'language']).where('user_id', '=', userId).orderBy('created_at').execute()).map((n) => ({
      template: n.template,
      change: (typeof n.params === 'string' ? JSON.parse(n.params) : n.params).change as string,
      expiresOn: (typeof n.params === 'string' ? JSON.parse(n.params) : n.params).expiresOn as string,
      language: n.language,
    }));

  /** A household that has just granted its organisation access: the row as the API leaves it, and its case. */
  async function granted(): Promise<{ handle: WorkflowHandle; input: StartAccessGrantInput }> {
    const h = await ts.tenantHousehold();
    const now = await ts.env.currentTimeMs();
    const expiresAt = new Date(now + PERIOD_DAYS * DAY);
    const org = await ts.db.selectFrom('organizations').select('name').where('id', '=', h.organizationId).executeTakeFirstOrThrow();
    const inserted = await ts.db
      .insertInto('access_grants')
      .values({
        user_id: h.userId,
        organization_id: h.organizationId,
        status: 'granted',
        channel: 'email',
        period_days: PERIOD_DAYS,
        requested_at: new Date(now - 60_000),
        pending_until: new Date(now + 7 * DAY),
        granted_at: new Date(now),
        granted_via: 'code',
        expires_at: expiresAt,
        version: 2,
      })
      .returning(['id', 'version'])
      .executeTakeFirstOrThrow();
    const input: StartAccessGrantInput = {
      grantId: inserted.id,
      userId: h.userId,
      organizationId: h.organizationId,
      organizationName: org.name,
      periodDays: PERIOD_DAYS,
      grantedAt: new Date(now).toISOString(),
      expiresAt: expiresAt.toISOString(),
      version: inserted.version,
    };
    const handle = await ts.client.workflow.start('accessGrant', { workflowId: accessGrantWorkflowId(input.grantId), taskQueue: ts.taskQueue, args: [input] });
    return { handle, input };
  }

  it('tells the household 7 days before the end, is extended by it for another period, and expires at the new end', async () => {
    const { handle, input } = await granted();
    const household = as('household', input.userId);
    let view = await handle.query(getAccessGrantView);
    expect(view).toMatchObject({ status: 'granted', expiresAt: input.expiresAt, noticesSent: [], availableActions: { household: ['Extend', 'Revoke'], ambassador: ['Withdraw'], admin: ['EndByAdmin'] } });
    // Each action is its own side's: the organisation cannot extend, the household cannot act as admin.
    expect(await refusal(send(handle, 'Extend', as('ambassador', input.userId)))).toBe('forbidden');
    expect(await refusal(send(handle, 'EndByAdmin', household))).toBe('forbidden');

    // Just before the notice: nothing sent yet.
    const firstEnd = Date.parse(input.expiresAt);
    await ts.env.sleep(firstEnd - ACCESS_NOTICE_DAYS_BEFORE * DAY - (await ts.env.currentTimeMs()) - HOUR);
    expect((await handle.query(getAccessGrantView)).noticesSent).toEqual([]);
    expect(await notices(input.userId)).toEqual([]);
    // Past it: one notice, at its time, in the household's language; the grant still holds.
    await ts.env.sleep(2 * HOUR);
    view = await until(handle, (v) => v.noticesSent.length === 1);
    expect(Math.abs(Date.parse(view.noticesSent[0]!.at) - (firstEnd - ACCESS_NOTICE_DAYS_BEFORE * DAY))).toBeLessThan(60_000);
    expect(await notices(input.userId)).toEqual([{ template: 'access-changed', change: 'ending', expiresOn: input.expiresAt.slice(0, 10), language: 'es' }]);
    expect((await row(input.grantId)).status).toBe('granted');
    // The delivery worker writes both messages in each of the four languages, with the date.
    for (const language of ['en', 'es', 'zh', 'bn'] as const) {
      for (const change of ['ending', 'expired'] as const) {
        const message = findTemplate('access-changed')!.render(language, { change, organizationName: input.organizationName, expiresOn: input.expiresAt.slice(0, 10) }, { baseUrl: 'http://portal.test' });
        expect(message.text, `${language} ${change}`).toContain(input.expiresAt.slice(0, 10));
        expect(message.text).toContain('http://portal.test/profile-setting');
      }
    }

    // The household keeps the help: another full period from now; the row follows.
    const extendedAt = await ts.env.currentTimeMs();
    view = await send(handle, 'Extend', household);
    const newEnd = Date.parse(view.expiresAt);
    expect(Math.abs(newEnd - (extendedAt + PERIOD_DAYS * DAY))).toBeLessThan(60_000);
    expect(view.extensions).toHaveLength(1);
    await expect.poll(async () => (await row(input.grantId)).expires_at?.toISOString()).toBe(view.expiresAt);

    // The old end passes without effect.
    await ts.env.sleep(firstEnd - (await ts.env.currentTimeMs()) + DAY);
    view = await handle.query(getAccessGrantView);
    expect(view).toMatchObject({ status: 'granted', noticesSent: [{ expiresAt: input.expiresAt }] });

    // The new end: a second notice 7 days before it, then the expiry.
    await ts.env.sleep(newEnd - (await ts.env.currentTimeMs()) + HOUR);
    view = await until(handle, (v) => v.status === 'expired');
    expect(view.noticesSent.map((n) => n.expiresAt)).toEqual([input.expiresAt, view.expiresAt]);
    expect(view.endedAt).toBe(view.expiresAt);
    expect(view.availableActions).toEqual({ household: [], ambassador: [], admin: [] });
    expect(await handle.result()).toBe('expired');
    expect(await row(input.grantId)).toMatchObject({ status: 'expired', ended_by: null, expires_at: new Date(view.expiresAt), ended_at: new Date(view.expiresAt) });
    expect((await notices(input.userId)).map((n) => [n.change, n.expiresOn])).toEqual([
      ['ending', input.expiresAt.slice(0, 10)],
      ['ending', view.expiresAt.slice(0, 10)],
      ['expired', view.expiresAt.slice(0, 10)],
    ]);
    await recordHistory('access-grant-extended-expired', handle);
  }, 120_000);

  it('is ended by the organisation before its notice: the household is told once, no timer fires after', async () => {
    const { handle, input } = await granted();
    const ambassadorId = (await ts.db.selectFrom('users').select('id').where('role', '=', 'HousingAmbassador').executeTakeFirstOrThrow()).id;
    await ts.env.sleep(10 * DAY);
    const view = await send(handle, 'Withdraw', as('ambassador', ambassadorId));
    expect(view).toMatchObject({ status: 'revoked', endedBy: ambassadorId, availableActions: { household: [], ambassador: [], admin: [] } });
    expect(await handle.result()).toBe('revoked');
    expect(await row(input.grantId)).toMatchObject({ status: 'revoked', ended_by: ambassadorId, ended_at: new Date(view.endedAt!) });
    expect(await notices(input.userId)).toEqual([{ template: 'access-changed', change: 'revoked', expiresOn: input.expiresAt.slice(0, 10), language: 'es' }]);
    await recordHistory('access-grant-withdrawn', handle);
  }, 120_000);
});
