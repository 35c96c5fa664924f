import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities';
import { DAY, HOUR } from '../../domain/time';
import { waitlistWorkflowId } from '../../domain/waitlist-check-ins';
import { answerInboundText } from '../../api/services/sms';
import { insertDrawnLottery, type DrawnLottery } from '../helpers/drawn-lottery';
import { makeUser, otherOrganizationManager } from '../helpers/lease-up-users';
import { startStack, type Stack } from '../helpers/stack';

type Who = { authorization: string; userId: string; householdId: string | null };

/** A household keeps, restores or narrows its place on a waitlist; a manager sees and restores it. */
describe('/api/Waitlist', () => {
  let stack: Stack;
  let drawn: DrawnLottery;
  let activities: ReturnType<typeof createActivities>;
  let a: Who;
  let b: Who;
  let manager: Who;
  let apps: { id: string; rank: number; userId: string }[];
  const call = (who: Who | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    stack.app.inject({ method, url, ...(payload ? { payload } : {}), headers: who ? { authorization: who.authorization } : {} });
  /** The token of the latest waitlist notice to an application (the outbox keeps it until the message is sent). */
  const tokenOf = async (applicationId: string, template = 'waitlist-check-in') => {
    const row = await stack.db
      .selectFrom('notification_outbox')
      .select('params')
      .where('template', '=', template)
      .where('channel', '=', 'email')
      .where(({ eb, ref }) => eb(eb.fn('jsonb_extract_path_text', [ref('params'), eb.val('applicationId')]), '=', applicationId))
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    return /token=([A-Za-z0-9_-]+)/.exec(String((row.params as { path: string }).path))![1]!;
  };
  const sweep = (name: 'askCheckIns' | 'deactivateUnanswered' | 'removeUnrestored', cycle: number, askAt: number, now = Date.now()) =>
    activities[name]({ opportunityId: drawn.opportunityId, cycle, askAt, now, afterRank: 0, limit: 200 });

  beforeAll(async () => {
    stack = await startStack({ seed: false });
    activities = createActivities({ db: stack.db, blobs: stack.blobs });
    drawn = await insertDrawnLottery(stack.db, { households: 8, units: 2 });
    const opportunity = await stack.db.selectFrom('opportunities').select('organization_id').where('id', '=', drawn.opportunityId).executeTakeFirstOrThrow();
    await stack.db
      .insertInto('units')
      .values(['1 bedroom', '2 bedroom'].map((bedroom, i) => ({ opportunity_id: drawn.opportunityId, unit_number: `${i + 1}A`, bedroom_type: bedroom, address: '1 Draw Street', accessibility: '[]', monthly_rent: '1200', ami_percent: 60 })))
      .execute();
    a = await makeUser(stack, { role: 'User' });
    b = await makeUser(stack, { role: 'User' });
    manager = await makeUser(stack, { role: 'Manager', organizationId: opportunity.organization_id });
    const ranked = await stack.db.selectFrom('applications').select(['id', 'lottery_rank', 'applicant_user_id']).where('opportunity_id', '=', drawn.opportunityId).orderBy('lottery_rank').execute();
    apps = ranked.map((r) => ({ id: r.id, rank: r.lottery_rank!, userId: r.applicant_user_id }));
    // The households of A and B hold the applications ranked 2 and 5.
    await stack.db.updateTable('applications').set({ household_id: a.householdId!, applicant_user_id: a.userId }).where('id', '=', apps[1]!.id).execute();
    await stack.db.updateTable('applications').set({ household_id: b.householdId!, applicant_user_id: b.userId }).where('id', '=', apps[4]!.id).execute();
    apps[1]!.userId = a.userId;
    apps[4]!.userId = b.userId;
  });
  afterAll(() => stack?.close());

  it('lets a household keep its place from My Applications or by its link, never another household', async () => {
    const askAt = Date.now() - HOUR;
    expect((await sweep('askCheckIns', 1, askAt)).count).toBe(8);

    const mine = await call(a, 'GET', '/api/Waitlist/mine');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toEqual([
      expect.objectContaining({ applicationId: apps[1]!.id, rank: 2, state: 'active', activePosition: 2, activeTotal: 8, checkInOpen: true, next: 'confirm_now', lastConfirmedAt: null, bedroomTypes: ['1 bedroom', '2 bedroom'] }),
    ]);
    // Another household's application is not there for B.
    expect((await call(b, 'POST', `/api/Waitlist/mine/${apps[1]!.id}/ConfirmInterest`)).statusCode).toBe(404);
    expect((await call(b, 'PUT', `/api/Waitlist/mine/${apps[1]!.id}/declined-sizes`, { declined: ['2 bedroom'] })).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/Waitlist/mine')).statusCode).toBe(401);
    expect((await call(manager, 'GET', '/api/Waitlist/mine')).statusCode).toBe(403);

    const kept = await call(a, 'POST', `/api/Waitlist/mine/${apps[1]!.id}/ConfirmInterest`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data).toMatchObject({ checkInOpen: false, next: 'wait_for_check_in' });
    expect(Date.parse(kept.json().data.lastConfirmedAt)).toBeGreaterThan(askAt);
    // A second press changes nothing and is not an error.
    expect((await call(a, 'POST', `/api/Waitlist/mine/${apps[1]!.id}/ConfirmInterest`)).statusCode).toBe(200);

    // Signed out, by the link of the notice: viewing acts on nothing; only the POST of the button does.
    const token = await tokenOf(apps[0]!.id);
    const view = await call(null, 'POST', '/api/Waitlist/link', { token });
    expect(view.statusCode).toBe(200);
    expect(view.json().data).toMatchObject({ applicationId: apps[0]!.id, checkInOpen: true });
    const row = () => stack.db.selectFrom('applications').select(['waitlist_confirmed_at']).where('id', '=', apps[0]!.id).executeTakeFirstOrThrow();
    expect((await row()).waitlist_confirmed_at).toBeNull();
    const confirmed = await call(null, 'POST', '/api/Waitlist/link/ConfirmInterest', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data).toMatchObject({ applicationId: apps[0]!.id, checkInOpen: false });
    expect((await row()).waitlist_confirmed_at).not.toBeNull();
    const forged = await call(null, 'POST', '/api/Waitlist/link/ConfirmInterest', { token: `${token.slice(0, -2)}xx` });
    expect(forged.statusCode).toBe(404);
    expect(forged.json()).toMatchObject({ status: 404, data: { code: 'waitlistLinkInvalid' } });
    expect(readFileSync(stack.logFile, 'utf8')).not.toContain(token);

    // A text YES from the number of the household ranked 3 keeps its place.
    await stack.db.updateTable('users').set({ phone_number: '+1 (212) 555-0199' }).where('id', '=', apps[2]!.userId).execute();
    const reply = await answerInboundText(stack.db, '2125550199', 'yes');
    expect(reply.text).toContain('waitlist');
    expect((await stack.db.selectFrom('waitlist_check_ins').select('answered_by').where('application_id', '=', apps[2]!.id).executeTakeFirstOrThrow()).answered_by).toBe('sms');
  });

  it('declines unit sizes for one opportunity, keeping the place for the others', async () => {
    const declined = await call(b, 'PUT', `/api/Waitlist/mine/${apps[4]!.id}/declined-sizes`, { declined: ['2 bedroom'] });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().data).toMatchObject({ declinedBedroomTypes: ['2 bedroom'], state: 'active', rank: 5 });
    expect((await call(b, 'PUT', `/api/Waitlist/mine/${apps[4]!.id}/declined-sizes`, { declined: ['castle'] })).json()).toMatchObject({ status: 422, data: { code: 'unitSizeNotOffered' } });
    expect((await call(b, 'PUT', `/api/Waitlist/mine/${apps[4]!.id}/declined-sizes`, { declined: [] })).json().data.declinedBedroomTypes).toEqual([]);
  });

  it('makes the silent inactive, restorable by the household for 30 days or by a manager with a reason, then removed', async () => {
    // A cycle asked 31 days ago: nobody answered it.
    const askAt = Date.now() - 31 * DAY;
    await sweep('askCheckIns', 2, askAt);
    expect((await sweep('deactivateUnanswered', 2, askAt)).count).toBe(8);
    const mine = (await call(a, 'GET', '/api/Waitlist/mine')).json().data[0];
    expect(mine).toMatchObject({ state: 'inactive', stateReason: 'no_answer', activePosition: null, next: 'restore_now' });
    expect((await call(a, 'POST', `/api/Waitlist/mine/${apps[1]!.id}/ConfirmInterest`)).json()).toMatchObject({ status: 409, data: { code: 'waitlistPlaceInactive' } });
    const restored = await call(a, 'POST', `/api/Waitlist/mine/${apps[1]!.id}/RestorePlace`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ state: 'active', activePosition: 1, activeTotal: 1 });

    // By the link of the inactive notice, signed out.
    const inactiveToken = await tokenOf(apps[0]!.id, 'waitlist-inactive');
    expect((await call(null, 'POST', '/api/Waitlist/link/RestorePlace', { token: inactiveToken })).json().data).toMatchObject({ state: 'active', activePosition: 1, activeTotal: 2 });

    // The manager's view of the inactive ones, with the reason and date of each change; another organisation sees nothing.
    const page = await call(manager, 'GET', `/api/Waitlist/${drawn.opportunityId}?state=inactive&limit=2`);
    expect(page.statusCode).toBe(200);
    expect(page.json().data.rows.map((r: { rank: number }) => r.rank)).toEqual([3, 4]);
    expect(page.json().data.next).toBe(4);
    expect(page.json().data.rows[0].changes).toEqual([expect.objectContaining({ state: 'inactive', reason: 'no_answer' })]);
    const next = (await call(manager, 'GET', `/api/Waitlist/${drawn.opportunityId}?state=inactive&after=4&limit=2`)).json().data;
    expect(next.rows.map((r: { rank: number }) => r.rank)).toEqual([5, 6]);
    const other = await otherOrganizationManager(stack);
    expect((await call(other, 'GET', `/api/Waitlist/${drawn.opportunityId}`)).statusCode).toBe(403);
    expect((await call(a, 'GET', `/api/Waitlist/${drawn.opportunityId}`)).statusCode).toBe(403);
    expect((await call(other, 'POST', `/api/Waitlist/${drawn.opportunityId}/${apps[2]!.id}/RestorePlace`, { reason: 'Called the office' })).statusCode).toBe(403);

    // The manager restores one with a reason, and records another's returned letter.
    expect((await call(manager, 'POST', `/api/Waitlist/${drawn.opportunityId}/${apps[2]!.id}/RestorePlace`, { reason: '' })).statusCode).toBe(400);
    expect((await call(manager, 'POST', `/api/Waitlist/${drawn.opportunityId}/${apps[2]!.id}/RestorePlace`, { reason: 'Called the office on the 3rd' })).statusCode).toBe(200);
    expect((await call(manager, 'POST', `/api/Waitlist/${drawn.opportunityId}/${apps[3]!.id}/RecordReturnedLetter`)).json().data).toEqual({ outcome: 'restored' });
    const changes = (await call(manager, 'GET', `/api/Waitlist/${drawn.opportunityId}?state=active`)).json().data.rows.find((r: { rank: number }) => r.rank === 3).changes;
    expect(changes).toEqual([expect.objectContaining({ state: 'inactive', reason: 'no_answer' }), expect.objectContaining({ state: 'active', reason: 'restored_by_manager', note: 'Called the office on the 3rd' })]);

    // Thirty days later the others are removed; only a manager brings one back.
    const earlier = Date.now() - 61 * DAY;
    await stack.db.updateTable('waitlist_check_ins').set({ asked_at: new Date(earlier) }).where('cycle', '=', 2).execute();
    expect((await sweep('removeUnrestored', 2, earlier)).count).toBe(4);
    expect((await call(b, 'POST', `/api/Waitlist/mine/${apps[4]!.id}/RestorePlace`)).json()).toMatchObject({ status: 409, data: { code: 'waitlistCannotRestore' } });
    expect((await call(b, 'GET', '/api/Waitlist/mine')).json().data).toEqual([expect.objectContaining({ state: 'removed', stateReason: 'not_restored', next: 'removed', activePosition: null })]);
    expect((await call(manager, 'POST', `/api/Waitlist/${drawn.opportunityId}/${apps[4]!.id}/RestorePlace`, { reason: 'Was in hospital' })).statusCode).toBe(200);
    expect((await call(b, 'GET', '/api/Waitlist/mine')).json().data[0]).toMatchObject({ state: 'active', activePosition: 5 });
  });

  it('sets the months between check-ins, starting the waitlist workflow of a lottery drawn before', async () => {
    expect((await call(manager, 'PUT', `/api/Waitlist/${drawn.opportunityId}/check-in-months`, { months: 30 })).statusCode).toBe(400);
    const set = await call(manager, 'PUT', `/api/Waitlist/${drawn.opportunityId}/check-in-months`, { months: 3 });
    expect(set.statusCode).toBe(200);
    expect((await stack.db.selectFrom('opportunities').select('waitlist_check_in_months').where('id', '=', drawn.opportunityId).executeTakeFirstOrThrow()).waitlist_check_in_months).toBe(3);
    const described = await stack.temporal.workflow.getHandle(waitlistWorkflowId(drawn.opportunityId)).describe();
    expect(described.status.name).toBe('RUNNING');
  });
});
