import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { grantAccess, makeOrganization, makeUser, organizationId } from '../helpers/ambassador';
import { latestMessage } from '../helpers/identity';
import { accessGrantWorkflowId } from '../../infra/temporal/ids';
import { getAccessGrantView } from '../../workflows/access-grant.messages';
import { DAY } from '../../domain/time';

/**
 * Consented access: an ambassador acts for a household only while it grants
 * access to the ambassador's organisation; revocation and expiry end an impersonation at its next
 * request; every action is audited for the household and for admins.
 */
describe('Consented access and impersonation', () => {
  let stack: Stack;
  let riverside: string;
  let amb: { authorization: string; userId: string };
  let admin: { authorization: string; userId: string };
  const as = (who: { authorization: string }) => ({ authorization: who.authorization });
  const get = (url: string, who: { authorization: string }) => stack.app.inject({ url, headers: as(who) });
  const post = (url: string, who: { authorization: string }, payload: object = {}) => stack.app.inject({ method: 'POST', url, headers: as(who), payload });
  const impersonate = (userId: string) => post(`/api/Account/impersonate/${userId}`, amb);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function resident(extra: { organizationId?: string } = {}) {
    const user = await makeUser(stack.db, { role: 'User', organizationId: extra.organizationId ?? riverside, household: true });
    const session = { authorization: `Bearer ${stack.app.signAccessToken({ sub: user.userId, role: 'User' }).token}`, userId: user.userId };
    return session;
  }

  async function codeFor(userId: string) {
    const message = await latestMessage(stack.db, userId, 'access-request');
    return String(message!.params.code);
  }

  beforeAll(async () => {
    stack = await startStack();
    riverside = await organizationId(stack.db);
    amb = await signIn(stack.app, 'HousingAmbassador');
    admin = await signIn(stack.app, 'Admin');
  });
  afterAll(() => stack?.close());

  it('an ambassador cannot impersonate an admin, a manager, or a household that has not granted access', async () => {
    const manager = await signIn(stack.app, 'Manager');
    const household = await resident();
    for (const target of [admin.userId, manager.userId]) {
      const r = await impersonate(target);
      expect(r.statusCode).toBe(403);
      expect(r.json().data.code).toBe('cannotImpersonate');
    }
    const refused = await impersonate(household.userId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'This household has not given your organisation access.', data: { code: 'accessNotGranted' } });
    // A grant to another organisation does not let this ambassador in.
    const elsewhere = await makeOrganization(stack.db, 'Elsewhere Advocates', 'ambassador_organization');
    await grantAccess(stack.db, { userId: household.userId, organizationId: elsewhere, requestedBy: admin.userId });
    expect((await impersonate(household.userId)).statusCode).toBe(403);
    // A pending request is not a grant.
    expect((await post('/api/Ambassador/access-requests', amb, { userId: household.userId })).statusCode).toBe(200);
    expect((await impersonate(household.userId)).statusCode).toBe(403);
    // Residents of other organisations are not reachable at all.
    const outsider = await resident({ organizationId: elsewhere });
    expect((await post('/api/Ambassador/access-requests', amb, { userId: outsider.userId })).statusCode).toBe(404);
  });

  it('request by email, grant by code at the desk for the organisation\'s period, act, exit; the household and admins see the audit', async () => {
    await stack.db.updateTable('organizations').set({ access_period_days: 30 }).where('id', '=', riverside).execute();
    // Back to the default for the tests after this one, whatever happens here.
    onTestFinished(async () => {
      await stack.db.updateTable('organizations').set({ access_period_days: 90 }).where('id', '=', riverside).execute();
    });
    const household = await resident();
    const requested = await post('/api/Ambassador/access-requests', amb, { userId: household.userId, channel: 'email' });
    expect(requested.json().data).toMatchObject({ status: 'pending', expiresAt: null });
    const message = await latestMessage(stack.db, household.userId, 'access-request');
    expect(message).toMatchObject({ channel: 'email', to_address: expect.stringContaining('@example.test') });
    expect(message!.params).toMatchObject({ ambassadorName: 'Sam Okafor', organizationName: 'Riverside Housing Partners', periodDays: 30 });

    const code = await codeFor(household.userId);
    const wrong = await post('/api/Ambassador/access-requests/grant-by-code', amb, { userId: household.userId, code: code === '000000' ? '000001' : '000000' });
    expect(wrong.json()).toMatchObject({ status: 400, message: 'Invalid OTP' });
    expect((await post('/api/Ambassador/access-requests/grant-by-code', amb, { userId: household.userId, code: 'abc' })).statusCode).toBe(400);
    const granted = await post('/api/Ambassador/access-requests/grant-by-code', amb, { userId: household.userId, code });
    expect(granted.json().data).toMatchObject({ status: 'granted' });
    const row = await stack.db.selectFrom('access_grants').selectAll().where('user_id', '=', household.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'granted', granted_via: 'code', period_days: 30 });
    expect(row.expires_at!.getTime() - row.granted_at!.getTime()).toBe(30 * DAY);
    expect(await latestMessage(stack.db, household.userId, 'access-changed')).toMatchObject({ params: expect.objectContaining({ change: 'granted' }) });
    // The code works once.
    expect((await post('/api/Ambassador/access-requests/grant-by-code', amb, { userId: household.userId, code })).statusCode).toBe(409);
    // Asking again while granted is refused.
    expect((await post('/api/Ambassador/access-requests', amb, { userId: household.userId })).json().data.code).toBe('accessAlreadyRequested');

    const started = await impersonate(household.userId);
    expect(started.statusCode).toBe(200);
    const acting = bearer(started.json().data.accessToken);
    expect((await stack.app.inject({ url: '/api/Household/profile', headers: acting })).statusCode).toBe(200);
    // Consent is the household's own act: not while someone acts for it.
    const selfRevoke = await post(`/api/AccessGrants/${row.id}/revoke`, acting);
    expect(selfRevoke.json().data.code).toBe('notAllowedWhileImpersonating');
    const exit = await post('/api/Account/exit-impersonation', acting);
    expect(exit.json().data).toMatchObject({ userId: amb.userId, role: 'HousingAmbassador' });

    // The household's audit: who, for whom, what, when, newest first, paged.
    const audit = async (url: string, who: { authorization: string }) => {
      const all: { event: string; method: string | null; path: string | null; realUserName: string; actingUserId: string }[] = [];
      let cursor: string | null = null;
      do {
        const r = await get(`${url}${url.includes('?') ? '&' : '?'}limit=2${cursor ? `&cursor=${cursor}` : ''}`, who);
        expect(r.statusCode).toBe(200);
        all.push(...r.json().data.items);
        cursor = r.json().data.nextCursor;
      } while (cursor);
      return all;
    };
    // Each request's line is written before its answer is sent: the audit is complete and in order now.
    const mine = await audit('/api/AccessGrants/audit', household);
    // The exit is written by the route, its request line just before the response is sent.
    expect(mine.map((e) => `${e.event} ${e.method ?? ''} ${e.path ?? ''}`.trim())).toEqual([
      'request POST /api/Account/exit-impersonation',
      'exit',
      `request POST /api/AccessGrants/${row.id}/revoke`,
      'request GET /api/Household/profile',
      'start',
    ]);
    expect(mine.every((e) => e.realUserName === 'Sam Okafor' && e.actingUserId === household.userId)).toBe(true);
    expect(await audit(`/api/Admin/impersonation-audit?actingUserId=${household.userId}`, admin)).toEqual(mine);
    // Another household sees nothing of it.
    const other = await resident();
    expect((await get('/api/AccessGrants/audit', other)).json().data.items).toEqual([]);
  });

  it('the household grants in settings by SMS request, and revoking ends an impersonation in progress at its next request', async () => {
    const household = await resident();
    expect((await post('/api/Ambassador/access-requests', amb, { userId: household.userId, channel: 'sms' })).statusCode).toBe(200);
    expect(await latestMessage(stack.db, household.userId, 'access-request')).toMatchObject({ channel: 'sms', to_address: '2125550199' });

    const listed = (await get('/api/AccessGrants', household)).json().data.items;
    expect(listed).toEqual([expect.objectContaining({ organizationName: 'Riverside Housing Partners', status: 'pending', requestedByName: 'Sam Okafor', periodDays: 90 })]);
    const grantId = listed[0].grantId;
    const other = await resident();
    expect((await post(`/api/AccessGrants/${grantId}/grant`, other)).statusCode).toBe(404);
    const granted = await post(`/api/AccessGrants/${grantId}/grant`, household);
    expect(granted.json().data).toMatchObject({ status: 'granted', grantedVia: 'settings' });

    const started = await impersonate(household.userId);
    const acting = bearer(started.json().data.accessToken);
    const refreshToken = started.json().data.refreshToken;
    expect((await stack.app.inject({ url: '/api/Household/profile', headers: acting })).statusCode).toBe(200);

    // The grant is a durable case now; the household's revocation is its Update, answered once the row says so.
    const grantCase = stack.temporal.workflow.getHandle(accessGrantWorkflowId(grantId));
    expect((await grantCase.query(getAccessGrantView)).status).toBe('granted');
    const revoked = await post(`/api/AccessGrants/${grantId}/revoke`, household);
    expect(revoked.json().data).toMatchObject({ status: 'revoked', endedAt: expect.any(String) });
    expect(await grantCase.result()).toBe('revoked');
    expect(await stack.db.selectFrom('access_grants').select(['status', 'ended_by']).where('id', '=', grantId).executeTakeFirstOrThrow()).toEqual({ status: 'revoked', ended_by: household.userId });
    await eventually(async () => (await latestMessage(stack.db, household.userId, 'access-changed'))?.params.change === 'revoked');

    // The next request of the impersonation in progress is refused, with refreshed tokens too.
    const next = await stack.app.inject({ url: '/api/Household/profile', headers: acting });
    expect(next.statusCode).toBe(403);
    expect(next.json()).toMatchObject({ message: 'Access to this household has ended, so you are no longer acting for them.', data: { code: 'accessGrantEnded' } });
    const refreshed = await post('/api/Account/refresh-token', { authorization: '' }, { refreshToken });
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers: bearer(refreshed.json().data.accessToken) })).json().data.code).toBe('accessGrantEnded');
    // Exiting still gives the ambassador their own session back; starting again is refused.
    const exit = await post('/api/Account/exit-impersonation', bearer(refreshed.json().data.accessToken));
    expect(exit.json().data.role).toBe('HousingAmbassador');
    expect((await impersonate(household.userId)).json().data.code).toBe('accessNotGranted');
    expect((await post(`/api/AccessGrants/${grantId}/revoke`, household)).json().data.code).toBe('accessNotActive');
    // The refused request is in the household's audit too.
    await eventually(async () => {
      const lines: { event: string; path: string | null; statusCode: number | null }[] = (await get('/api/AccessGrants/audit', household)).json().data.items;
      return lines.some((l) => l.event === 'request' && l.path === '/api/Household/profile' && l.statusCode === 403);
    });
  });

  it('an expired grant ends an impersonation at its next request, and a new request can then be made', async () => {
    const household = await resident();
    const grantId = await grantAccess(stack.db, { userId: household.userId, organizationId: riverside, requestedBy: amb.userId });
    const acting = bearer((await impersonate(household.userId)).json().data.accessToken);
    expect((await stack.app.inject({ url: '/api/Household/profile', headers: acting })).statusCode).toBe(200);
    // The grant's period has run out (the row as it is once its time passed).
    await stack.db.updateTable('access_grants').set({ granted_at: new Date(Date.now() - 91 * DAY), expires_at: new Date(Date.now() - DAY) }).where('id', '=', grantId).execute();
    expect((await stack.app.inject({ url: '/api/Household/profile', headers: acting })).json().data.code).toBe('accessGrantEnded');
    expect((await get('/api/AccessGrants', household)).json().data.items[0]).toMatchObject({ grantId, status: 'expired' });
    expect((await get(`/api/Ambassador/${amb.userId}/users/${household.userId}/dashboard`, amb)).json().data).toMatchObject({ access: { status: 'expired' }, household: null });
    const again = await post('/api/Ambassador/access-requests', amb, { userId: household.userId });
    expect(again.json().data.status).toBe('pending');
    expect((await stack.db.selectFrom('access_grants').select('status').where('id', '=', grantId).executeTakeFirstOrThrow()).status).toBe('expired');
  });

  it('a household declines a pending request; asking again sends a fresh code; admins and ambassadors can end access', async () => {
    const household = await resident();
    await post('/api/Ambassador/access-requests', amb, { userId: household.userId });
    const first = await codeFor(household.userId);
    await post('/api/Ambassador/access-requests', amb, { userId: household.userId });
    const second = await codeFor(household.userId);
    expect((await stack.db.selectFrom('access_grants').select('id').where('user_id', '=', household.userId).execute())).toHaveLength(1);
    if (first !== second) expect((await post('/api/Ambassador/access-requests/grant-by-code', amb, { userId: household.userId, code: first })).statusCode).toBe(400);
    const [pending] = (await get('/api/AccessGrants', household)).json().data.items;
    expect((await post(`/api/AccessGrants/${pending.grantId}/revoke`, household)).json().data.status).toBe('revoked');
    expect((await post('/api/Ambassador/access-requests/grant-by-code', amb, { userId: household.userId, code: second })).json().data.code).toBe('accessRequestNotPending');

    const byAdmin = await grantAccess(stack.db, { userId: household.userId, organizationId: riverside, requestedBy: amb.userId });
    expect((await get(`/api/Admin/users/${household.userId}/access-grants`, admin)).json().data.items[0]).toMatchObject({ grantId: byAdmin, status: 'granted' });
    expect((await post(`/api/Admin/access-grants/${byAdmin}/revoke`, admin)).json().data.status).toBe('revoked');

    const byAmbassador = await grantAccess(stack.db, { userId: household.userId, organizationId: riverside, requestedBy: amb.userId });
    expect((await post(`/api/Ambassador/access-grants/${byAmbassador}/revoke`, amb)).json().data.status).toBe('revoked');
    // An ambassador of another organisation cannot touch it.
    const elsewhere = await makeOrganization(stack.db, 'Far Away Housing');
    const stranger = await makeUser(stack.db, { role: 'HousingAmbassador', organizationId: elsewhere });
    const strangerSession = { authorization: `Bearer ${stack.app.signAccessToken({ sub: stranger.userId, role: 'HousingAmbassador' }).token}` };
    const third = await grantAccess(stack.db, { userId: household.userId, organizationId: riverside, requestedBy: amb.userId });
    expect((await post(`/api/Ambassador/access-grants/${third}/revoke`, strangerSession)).statusCode).toBe(404);
    expect((await post(`/api/Account/impersonate/${household.userId}`, strangerSession)).json().data.code).toBe('accessNotGranted');
  });

  it('the household extends its grant for another period; nobody else can, and not while someone acts for it', async () => {
    const household = await resident();
    await post('/api/Ambassador/access-requests', amb, { userId: household.userId });
    const granted = await post('/api/Ambassador/access-requests/grant-by-code', amb, { userId: household.userId, code: await codeFor(household.userId) });
    const grantId: string = granted.json().data.grantId;
    const before = Date.parse(granted.json().data.expiresAt);
    expect((await post(`/api/AccessGrants/${grantId}/extend`, await resident())).statusCode).toBe(404);
    expect((await post(`/api/AccessGrants/${grantId}/extend`, amb)).statusCode).toBe(403);
    const acting = bearer((await impersonate(household.userId)).json().data.accessToken);
    expect((await post(`/api/AccessGrants/${grantId}/extend`, acting)).json().data.code).toBe('notAllowedWhileImpersonating');
    await post('/api/Account/exit-impersonation', acting);

    // The case takes the extension: a full period from the moment it took it (between the request
    // and its answer, on this machine's clock), the row and the case agree.
    const asked = Date.now();
    const extended = await post(`/api/AccessGrants/${grantId}/extend`, household);
    const answered = Date.now();
    expect(extended.statusCode).toBe(200);
    const after = Date.parse(extended.json().data.expiresAt);
    expect(after).toBeGreaterThanOrEqual(before);
    expect(after).toBeGreaterThanOrEqual(asked + 90 * DAY);
    expect(after).toBeLessThanOrEqual(answered + 90 * DAY);
    const view = await stack.temporal.workflow.getHandle(accessGrantWorkflowId(grantId)).query(getAccessGrantView);
    expect(view).toMatchObject({ status: 'granted', expiresAt: new Date(after).toISOString(), extensions: [expect.objectContaining({ expiresAt: new Date(after).toISOString() })] });

    // Ended by the organisation: nothing more to extend.
    expect((await post(`/api/Ambassador/access-grants/${grantId}/revoke`, amb)).json().data).toMatchObject({ status: 'revoked' });
    const again = await post(`/api/AccessGrants/${grantId}/extend`, household);
    expect(again.json()).toMatchObject({ status: 409, data: { code: 'accessNotActive' } });
  });

  it('taking the ambassador off the organisation ends their impersonation at its next request', async () => {
    const harbor = await makeOrganization(stack.db, 'Harbor Two');
    const second = await makeUser(stack.db, { role: 'HousingAmbassador', organizationId: null });
    await post(`/api/Ambassador/saveambassadororgmapping/${second.userId}/${harbor}`, admin);
    const household = await resident({ organizationId: harbor });
    await grantAccess(stack.db, { userId: household.userId, organizationId: harbor, requestedBy: second.userId });
    const secondSession = { authorization: `Bearer ${stack.app.signAccessToken({ sub: second.userId, role: 'HousingAmbassador' }).token}` };
    const acting = bearer((await post(`/api/Account/impersonate/${household.userId}`, secondSession)).json().data.accessToken);
    expect((await stack.app.inject({ url: '/api/Household/profile', headers: acting })).statusCode).toBe(200);
    await stack.app.inject({ method: 'DELETE', url: `/api/Ambassador/saveambassadororgmapping/${second.userId}/${harbor}`, headers: as(admin) });
    expect((await stack.app.inject({ url: '/api/Household/profile', headers: acting })).json().data.code).toBe('accessGrantEnded');
  });
});
