import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { grantAccess, makeOrganization, makeUser, organizationId } from '../helpers/ambassador';
import { latestMessage } from '../helpers/identity';

/** The ambassador's side (the four spec routes of section 7 and the desk). */
describe('Ambassador: dashboard, users, organisations', () => {
  let stack: Stack;
  let riverside: string;
  let harbor: string;
  let tenantId: string;
  let amb: { authorization: string; userId: string };
  let admin: { authorization: string; userId: string };
  const get = (url: string, who: { authorization: string }) => stack.app.inject({ url, headers: { authorization: who.authorization } });
  const post = (url: string, who: { authorization: string }, payload: object = {}) => stack.app.inject({ method: 'POST', url, headers: { authorization: who.authorization }, payload });

  beforeAll(async () => {
    stack = await startStack();
    riverside = await organizationId(stack.db);
    harbor = await makeOrganization(stack.db, 'Harbor Homes');
    tenantId = (await stack.db.selectFrom('users').select('id').where('username', '=', 'tenant').executeTakeFirstOrThrow()).id;
    amb = await signIn(stack.app, 'HousingAmbassador');
    admin = await signIn(stack.app, 'Admin');
  });
  afterAll(() => stack?.close());

  it('answers the four spec routes for the ambassador themselves only; admins map ambassadors to organisations', async () => {
    const other = randomUUID();
    for (const url of [`/api/Ambassador/getambessdordashboard/${other}`, `/api/Ambassador/getambessdorUsers/${other}`, `/api/Ambassador/getambessdororglist/${other}`]) {
      expect((await get(url, amb)).statusCode, url).toBe(403);
    }
    const orgs = async () => (await get(`/api/Ambassador/getambessdororglist/${amb.userId}`, amb)).json().data.items.map((o: { name: string }) => o.name);
    expect(await orgs()).toEqual(['Riverside Housing Partners']);

    // Only an admin maps; the mapping adds the organisation's users to the ambassador's lists.
    const map = `/api/Ambassador/saveambassadororgmapping/${amb.userId}/${harbor}`;
    expect((await post(map, amb)).statusCode).toBe(403);
    expect((await post(map, admin)).statusCode).toBe(200);
    expect((await post(map, admin)).statusCode).toBe(200);
    expect(await orgs()).toEqual(['Harbor Homes', 'Riverside Housing Partners']);
    const harborResident = await makeUser(stack.db, { role: 'User', organizationId: harbor, lastName: 'Harborside' });
    const users = async () => (await get(`/api/Ambassador/getambessdorUsers/${amb.userId}?limit=100`, amb)).json().data.items.map((u: { userId: string }) => u.userId);
    expect(await users()).toContain(harborResident.userId);

    expect((await stack.app.inject({ method: 'DELETE', url: map, headers: { authorization: admin.authorization } })).statusCode).toBe(200);
    expect(await orgs()).toEqual(['Riverside Housing Partners']);
    expect(await users()).not.toContain(harborResident.userId);
    const audit = await stack.db.selectFrom('user_admin_audit').select('action').where('user_id', '=', amb.userId).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['ambassadorMapped', 'ambassadorUnmapped']);
    // Bad ids are a 400, unknown ones a 404.
    expect((await post(`/api/Ambassador/saveambassadororgmapping/${amb.userId}/not-a-uuid`, admin)).statusCode).toBe(400);
    expect((await post(`/api/Ambassador/saveambassadororgmapping/${amb.userId}/${randomUUID()}`, admin)).statusCode).toBe(404);
  });

  it('counts the users of the ambassador organisations by status, verification, profile, applications and recertifications', async () => {
    const before = (await get(`/api/Ambassador/getambessdordashboard/${amb.userId}`, amb)).json().data;
    // Three more residents of Riverside (one deactivated, one unverified), one of Harbor, one Riverside manager.
    const a = await makeUser(stack.db, { role: 'User', organizationId: riverside, household: true });
    const b = await makeUser(stack.db, { role: 'Tenant', organizationId: riverside });
    const c = await makeUser(stack.db, { role: 'User', organizationId: riverside });
    await stack.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', b.userId).execute();
    await stack.db.updateTable('users').set({ email_verified: false }).where('id', '=', c.userId).execute();
    await makeUser(stack.db, { role: 'User', organizationId: harbor, household: true });
    await makeUser(stack.db, { role: 'Manager', organizationId: riverside });

    // Read models: two applications of one household, an active recertification of the tenant.
    const household = await stack.db.selectFrom('households').select(['id']).where('head_user_id', '=', a.userId).executeTakeFirstOrThrow();
    await stack.db.updateTable('households').set({ profile_completion: 100 }).where('id', '=', household.id).execute();
    const opportunities = await stack.db.selectFrom('opportunities').select('id').limit(2).execute();
    for (const [i, status] of (['in_review', 'rejected'] as const).entries()) {
      const id = randomUUID();
      await stack.db
        .insertInto('applications')
        .values({ id, workflow_id: `test-${id}`, household_id: household.id, opportunity_id: opportunities[i]!.id, organization_id: riverside, applicant_user_id: a.userId, status, current_step: 'documentation_review', pending_tasks: '[]', household_size: 1, household_income: 40_000, applied_at: new Date(), state_updated_at: new Date(), state_version: 1 })
        .execute();
    }
    const tenantHousehold = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', tenantId).executeTakeFirstOrThrow();
    const caseId = randomUUID();
    await stack.db
      .insertInto('recertification_cases')
      .values({ id: caseId, workflow_id: `test-${caseId}`, household_id: tenantHousehold.id, organization_id: riverside, tenant_user_id: tenantId, kind: 'annual', deadline: '2030-01-01', stage: 'action_needed', status: 'active', profile_locked: false, tenant_signed: false, pending_tasks: '[]', started_at: new Date(), state_updated_at: new Date(), state_version: 1 })
      .execute();

    const counts = (await get(`/api/Ambassador/getambessdordashboard/${amb.userId}`, amb)).json().data;
    expect(counts.organizations).toBe(1);
    expect(counts.users).toEqual({
      total: before.users.total + 3,
      active: before.users.active + 2,
      deactivated: before.users.deactivated + 1,
      emailVerified: before.users.emailVerified + 2,
      profilesComplete: before.users.profilesComplete + 1,
    });
    expect(counts.applications).toEqual({ ...before.applications, in_review: (before.applications.in_review ?? 0) + 1, rejected: (before.applications.rejected ?? 0) + 1 });
    expect(counts.recertificationsDue).toBe(before.recertificationsDue + 1);
    expect(counts.access).toEqual({ pending: 0, granted: 0 });
  });

  it('lists only its organisations\' residents with the spec columns, search, status filter, sort and cursor paging', async () => {
    const names = ['Ximena Quill', 'Yusuf Quill', 'Zed Quill', 'Abel Quill', 'Bea Quill', 'Cruz Quill', 'Dov Quill'];
    const ids = new Map<string, string>();
    for (const name of names) {
      const [first, last] = name.split(' ') as [string, string];
      ids.set(name, (await makeUser(stack.db, { role: 'User', organizationId: riverside, firstName: first, lastName: last })).userId);
    }
    await makeUser(stack.db, { role: 'User', organizationId: harbor, firstName: 'Ana', lastName: 'Quill' });
    const list = (query: string) => get(`/api/Ambassador/getambessdorUsers/${amb.userId}?${query}`, amb);

    // Page by 3 sorted by name: every Quill once, in order, across pages.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await list(`search=quill&sort=name&dir=asc&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.statusCode).toBe(200);
      const data: { items: { firstName: string; lastName: string }[]; nextCursor: string | null } = r.json().data;
      seen.push(...data.items.map((u) => `${u.firstName} ${u.lastName}`));
      cursor = data.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...names].sort());
    const desc = (await list('search=QUILL&sort=name&dir=desc&limit=2')).json().data;
    expect(desc.items.map((u: { firstName: string }) => u.firstName)).toEqual(['Zed', 'Yusuf']);

    // The spec's columns and the access status.
    const zed = (await list('search=zed%20quill')).json().data.items;
    expect(zed).toHaveLength(1);
    expect(zed[0]).toMatchObject({ userId: ids.get('Zed Quill'), firstName: 'Zed', lastName: 'Quill', username: expect.any(String), email: expect.stringContaining('@'), phoneNumber: '2125550199', status: 'active', emailVerified: true, organizationName: 'Riverside Housing Partners', access: null });
    expect(Date.parse(zed[0].createdAt)).not.toBeNaN();

    // Staff and other organisations are never listed; filters narrow; sorts by every column work.
    const all = (await list('limit=100')).json().data.items as { role: string; organizationId: string }[];
    expect(all.every((u) => (u.role === 'User' || u.role === 'Tenant') && u.organizationId === riverside)).toBe(true);
    await stack.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', ids.get('Bea Quill')!).execute();
    expect((await list('search=quill&status=deactivated')).json().data.items.map((u: { firstName: string }) => u.firstName)).toEqual(['Bea']);
    for (const sort of ['username', 'email', 'createdAt', 'status']) {
      const r = await list(`search=quill&sort=${sort}&limit=4`);
      expect(r.statusCode, sort).toBe(200);
      const next = await list(`search=quill&sort=${sort}&limit=4&cursor=${r.json().data.nextCursor}`);
      expect(next.json().data.items, sort).toHaveLength(3);
    }
    // A search for a literal % matches nothing rather than everything.
    expect((await list('search=%25')).json().data.items).toEqual([]);

    // Bad input: 400; a cursor of another sort: 400; an organisation not theirs: 404.
    const nameCursor = (await list('search=quill&sort=name&limit=1')).json().data.nextCursor;
    expect((await list(`sort=email&cursor=${nameCursor}`)).statusCode).toBe(400);
    expect((await list('cursor=garbage')).statusCode).toBe(400);
    expect((await list('sort=password')).statusCode).toBe(400);
    expect((await list('limit=1000')).statusCode).toBe(400);
    expect((await list(`organizationId=${harbor}`)).statusCode).toBe(404);
  });

  it('creates an applicant who confirms the email and chooses a password from the invitation, and adds a tenant', async () => {
    const body = { organizationId: riverside, firstName: 'Nadia', lastName: 'Haddad', username: 'nadia.h', email: 'Nadia.Haddad@example.test', phoneNumber: '(212) 555-0177', preferredLanguage: 'es' };
    const created = await post('/api/Ambassador/users', amb, body);
    expect(created.statusCode).toBe(201);
    const user = created.json().data;
    expect(user).toMatchObject({ role: 'User', email: 'nadia.haddad@example.test', emailVerified: false, organizationId: riverside });

    const invite = await latestMessage(stack.db, user.userId, 'account-invite');
    expect(invite).toMatchObject({ language: 'es', to_address: 'nadia.haddad@example.test' });
    const { verifyPath, passwordPath } = invite!.params as { verifyPath: string; passwordPath: string };
    const verify = new URL(verifyPath, 'http://x');
    expect((await stack.app.inject({ url: `/api/Account/verify-email?${verify.searchParams}` })).statusCode).toBe(200);
    const reset = new URL(passwordPath, 'http://x').searchParams;
    const setPassword = await stack.app.inject({ method: 'POST', url: '/api/Account/reset-password', payload: { userId: reset.get('userId'), token: reset.get('token'), password: 'Nadia#2026pw', confirmPassword: 'Nadia#2026pw' } });
    expect(setPassword.statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: 'nadia.h', password: 'Nadia#2026pw' } })).statusCode).toBe(200);

    // "Add user" as a tenant: their first sign-in asks to match the resident profile.
    const tenant = await post('/api/Ambassador/users', amb, { ...body, role: 'Tenant', username: 'omar.t', email: 'omar@example.test' });
    expect(tenant.statusCode).toBe(201);
    expect(tenant.json().data.role).toBe('Tenant');

    expect((await post('/api/Ambassador/users', amb, { ...body, email: 'other@example.test' })).json().data.code).toBe('usernameTaken');
    expect((await post('/api/Ambassador/users', amb, { ...body, username: 'nadia2' })).json().data.code).toBe('emailTaken');
    expect((await post('/api/Ambassador/users', amb, { ...body, username: 'nadia3', email: 'n3@example.test', organizationId: harbor })).statusCode).toBe(404);
    expect((await post('/api/Ambassador/users', amb, { ...body, username: 'nadia4', email: 'n4@example.test', role: 'Admin' })).statusCode).toBe(400);
    expect((await post('/api/Ambassador/users', amb, { ...body, username: 'nadia5', email: 'n5@example.test', phoneNumber: '123' })).json().message).toBe('Phone number must have at least 10 digits');
  });

  it('shows a user\'s dashboard, with the household\'s details only while it grants access', async () => {
    const url = `/api/Ambassador/${amb.userId}/users/${tenantId}/dashboard`;
    const without = (await get(url, amb)).json().data;
    expect(without).toMatchObject({ user: { userId: tenantId, firstName: 'Luis', lastName: 'Ortega' }, access: null, household: null });

    await grantAccess(stack.db, { userId: tenantId, organizationId: riverside, requestedBy: amb.userId });
    const withAccess = (await get(url, amb)).json().data;
    expect(withAccess.access).toMatchObject({ status: 'granted' });
    expect(withAccess.household).toMatchObject({ profileCompletion: 100, householdSize: 2, recertification: { status: 'active' } });

    const outsider = await makeUser(stack.db, { role: 'User', organizationId: harbor });
    expect((await get(`/api/Ambassador/${amb.userId}/users/${outsider.userId}/dashboard`, amb)).statusCode).toBe(404);
    expect((await get(`/api/Ambassador/${randomUUID()}/users/${tenantId}/dashboard`, amb)).statusCode).toBe(403);
    const manager = await signIn(stack.app, 'Manager');
    expect((await get(`/api/Ambassador/${amb.userId}/users/${manager.userId}/dashboard`, amb)).statusCode).toBe(404);
  });

  it('an ambassador with no organisation is told so, applies to one, and works once an admin approves', async () => {
    const lone = await makeUser(stack.db, { role: 'HousingAmbassador', organizationId: null });
    const who = { authorization: `Bearer ${stack.app.signAccessToken({ sub: lone.userId, role: 'HousingAmbassador' }).token}` };
    const dashboard = await get(`/api/Ambassador/getambessdordashboard/${lone.userId}`, who);
    expect(dashboard.statusCode).toBe(403);
    expect(dashboard.json()).toMatchObject({ message: 'You are not linked to an organisation yet, so you do not have permission to use these pages.', data: { code: 'noLinkedOrganization' } });
    expect((await get('/api/Organization/mine', who)).json().data).toMatchObject({ linked: false, pendingRequests: [] });

    const directory = (await get('/api/Organization/directory?search=harbor', who)).json().data.items;
    expect(directory).toEqual([{ organizationId: harbor, name: 'Harbor Homes', kind: 'property_manager' }]);
    const applied = await post('/api/Organization/apply', who, { organizationId: harbor, note: 'I volunteer at Harbor.' });
    expect(applied.statusCode).toBe(201);
    expect((await post('/api/Organization/apply', who, { organizationId: harbor })).json().data.code).toBe('organizationRequestPending');
    expect((await get('/api/Organization/mine', who)).json().data.pendingRequests).toHaveLength(1);

    const pending = (await get('/api/Admin/organizations/requests', admin)).json().data.items;
    const mine = pending.find((r: { userId: string }) => r.userId === lone.userId);
    expect(mine).toMatchObject({ organizationName: 'Harbor Homes', note: 'I volunteer at Harbor.', status: 'pending' });
    expect((await post(`/api/Admin/organizations/requests/${mine.requestId}/approve`, admin)).json().data.status).toBe('approved');
    expect((await post(`/api/Admin/organizations/requests/${mine.requestId}/decline`, admin)).json().data.code).toBe('organizationRequestDecided');
    expect((await get('/api/Organization/mine', who)).json().data).toMatchObject({ linked: true, organizationIds: [harbor] });
    expect((await get(`/api/Ambassador/getambessdordashboard/${lone.userId}`, who)).statusCode).toBe(200);

    // Residents do not apply.
    const user = await signIn(stack.app, 'User');
    expect((await post('/api/Organization/apply', user, { organizationId: harbor })).statusCode).toBe(403);
  });
});
