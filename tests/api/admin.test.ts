import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { makeUser, signInWith } from '../helpers/ambassador';
import { latestMessage } from '../helpers/identity';

/** Admin screens' API: organisations, members, users, each change audited. */
describe('Admin: organisations and users', () => {
  let stack: Stack;
  let admin: { authorization: string; userId: string };
  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who = admin) =>
    stack.app.inject({ method, url, headers: { authorization: who.authorization }, ...(payload ? { payload } : method === 'GET' ? {} : { payload: {} }) });

  beforeAll(async () => {
    stack = await startStack();
    admin = await signIn(stack.app, 'Admin');
  });
  afterAll(() => stack?.close());

  it('creates and edits organisations with a kind and an access period; short names are unique; lists page by name', async () => {
    const created = await req('POST', '/api/Admin/organizations', { name: 'Eastside Advocates', slug: 'Eastside-Advocates', kind: 'ambassador_organization', email: 'Desk@Eastside.example', phone: '2125550111', accessPeriodDays: 60 });
    expect(created.statusCode).toBe(201);
    const org = created.json().data;
    expect(org).toMatchObject({ name: 'Eastside Advocates', slug: 'eastside-advocates', kind: 'ambassador_organization', email: 'desk@eastside.example', accessPeriodDays: 60 });
    const defaults = await req('POST', '/api/Admin/organizations', { name: 'Westside Homes', slug: 'westside', kind: 'property_manager' });
    expect(defaults.json().data).toMatchObject({ accessPeriodDays: 90, retentionDays: 2555, email: '', phone: '' });

    expect((await req('POST', '/api/Admin/organizations', { name: 'Dup', slug: 'eastside-advocates', kind: 'property_manager' })).json()).toMatchObject({ status: 409, data: { code: 'slugTaken' } });
    expect((await req('POST', '/api/Admin/organizations', { name: 'Bad', slug: 'no spaces!', kind: 'property_manager' })).json().message).toBe('Use 2 to 60 lowercase letters, numbers and dashes.');
    expect((await req('POST', '/api/Admin/organizations', { name: 'Bad', slug: 'bad', kind: 'property_manager', accessPeriodDays: 0 })).json().message).toBe('The access period must be between 1 and 365 days.');
    expect((await req('POST', '/api/Admin/organizations', { name: 'Bad', slug: 'bad2', kind: 'charity' })).statusCode).toBe(400);
    // A JSON boolean or string is not a number of days, even one that would coerce to a valid one.
    expect((await req('POST', '/api/Admin/organizations', { name: 'Bad', slug: 'bad3', kind: 'property_manager', accessPeriodDays: true })).json()).toMatchObject({ status: 400, message: 'The access period must be between 1 and 365 days.' });
    expect((await req('POST', '/api/Admin/organizations', { name: 'Bad', slug: 'bad4', kind: 'property_manager', retentionDays: '3650' })).statusCode).toBe(400);

    const edited = await req('PUT', `/api/Admin/organizations/${org.organizationId}`, { name: 'Eastside Housing Advocates', slug: 'eastside-advocates', kind: 'ambassador_organization', accessPeriodDays: 45 });
    expect(edited.json().data).toMatchObject({ name: 'Eastside Housing Advocates', accessPeriodDays: 45, email: '' });
    // Each organisation keeps closed applications' personal data for its own retention period.
    const retained = await req('PUT', `/api/Admin/organizations/${org.organizationId}`, { name: 'Eastside Housing Advocates', slug: 'eastside-advocates', kind: 'ambassador_organization', accessPeriodDays: 45, retentionDays: 3650 });
    expect(retained.json().data).toMatchObject({ retentionDays: 3650 });
    const tooShort = await req('PUT', `/api/Admin/organizations/${org.organizationId}`, { name: 'Eastside Housing Advocates', slug: 'eastside-advocates', kind: 'ambassador_organization', retentionDays: 7 });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().message).toBe('The retention period must be between 30 and 36500 days.');
    expect((await req('PUT', `/api/Admin/organizations/${org.organizationId}`, { name: 'X', slug: 'westside', kind: 'property_manager' })).json().data.code).toBe('slugTaken');
    expect((await req('PUT', '/api/Admin/organizations/00000000-0000-4000-8000-000000000000', { name: 'X', slug: 'nobody', kind: 'property_manager' })).statusCode).toBe(404);
    expect((await req('GET', `/api/Admin/organizations/${org.organizationId}`)).json().data.name).toBe('Eastside Housing Advocates');

    const page1 = (await req('GET', '/api/Admin/organizations?limit=2')).json().data;
    const page2 = (await req('GET', `/api/Admin/organizations?limit=2&cursor=${page1.nextCursor}`)).json().data;
    expect([...page1.items, ...page2.items].map((o: { name: string }) => o.name)).toEqual(['Eastside Housing Advocates', 'Riverside Housing Partners', 'Westside Homes']);
    expect(page2.nextCursor).toBeNull();
    expect((await req('GET', '/api/Admin/organizations?kind=ambassador_organization')).json().data.items.map((o: { slug: string }) => o.slug)).toEqual(['eastside-advocates']);
    expect((await req('GET', '/api/Admin/organizations?search=WEST')).json().data.items.map((o: { slug: string }) => o.slug)).toEqual(['westside']);
  });

  it('assigns a manager and maps an ambassador to an organisation, refuses residents, and audits each change', async () => {
    const org = (await req('POST', '/api/Admin/organizations', { name: 'Northside Property', slug: 'northside', kind: 'property_manager' })).json().data.organizationId;
    const manager = await makeUser(stack.db, { role: 'Manager', organizationId: null, firstName: 'Mona', lastName: 'Lee' });
    const ambassador = await makeUser(stack.db, { role: 'HousingAmbassador', organizationId: null, firstName: 'Aki', lastName: 'Sato' });
    const resident = await makeUser(stack.db, { role: 'User', organizationId: null });

    expect((await req('POST', `/api/Admin/organizations/${org}/members/${manager.userId}`)).statusCode).toBe(200);
    expect((await req('POST', `/api/Admin/organizations/${org}/members/${ambassador.userId}`)).statusCode).toBe(200);
    expect((await req('POST', `/api/Admin/organizations/${org}/members/${resident.userId}`)).json()).toMatchObject({ status: 409, data: { code: 'wrongRoleForOrganization' } });
    const members = (await req('GET', `/api/Admin/organizations/${org}/members`)).json().data.items;
    expect(members.map((m: { name: string; role: string }) => `${m.name} ${m.role}`)).toEqual(['Aki Sato HousingAmbassador', 'Mona Lee Manager']);
    expect((await stack.db.selectFrom('users').select('organization_id').where('id', '=', manager.userId).executeTakeFirstOrThrow()).organization_id).toBe(org);

    // The manager now works within the organisation: its ManagerTasks answer.
    const managerSession = await signInWith(stack.app, manager.username);
    expect((await req('GET', '/api/Organization/mine', undefined, managerSession)).json().data).toMatchObject({ linked: true, organizationIds: [org] });

    expect((await req('DELETE', `/api/Admin/organizations/${org}/members/${manager.userId}`)).statusCode).toBe(200);
    expect((await req('GET', `/api/Admin/organizations/${org}/members`)).json().data.items).toHaveLength(1);
    const audit = (await req('GET', `/api/Admin/users/${manager.userId}/audit`)).json().data.items;
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['organizationUnassigned', 'organizationAssigned']);
    expect(audit[1]).toMatchObject({ actorUserId: admin.userId, actorName: 'Dana Kowalski', detail: { organizationId: org, previous: null } });
  });

  it('deactivates a user, who cannot sign in and whose access and refresh tokens stop; reactivates', async () => {
    const user = await makeUser(stack.db, { role: 'User', organizationId: null, firstName: 'Pat', lastName: 'Doe' });
    const login = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: user.username, password: 'Helper#2026x' } });
    const { accessToken, refreshToken } = login.json().data;
    const headers = { authorization: `Bearer ${accessToken}` };
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers })).statusCode).toBe(200);

    const deactivated = await req('POST', `/api/Admin/users/${user.userId}/deactivate`);
    expect(deactivated.json().data).toMatchObject({ userId: user.userId, status: 'deactivated' });
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers })).statusCode).toBe(401);
    expect((await stack.app.inject({ method: 'POST', url: '/api/Account/refresh-token', payload: { refreshToken } })).statusCode).toBe(401);
    const again = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: user.username, password: 'Helper#2026x' } });
    expect(again.json()).toMatchObject({ status: 401, message: 'Login failed' });
    expect((await req('GET', `/api/Admin/users?status=deactivated&search=${user.username}`)).json().data.items).toHaveLength(1);

    expect((await req('POST', `/api/Admin/users/${user.userId}/reactivate`)).json().data.status).toBe('active');
    expect((await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: user.username, password: 'Helper#2026x' } })).statusCode).toBe(200);
    const audit = (await req('GET', `/api/Admin/users/${user.userId}/audit?limit=1`)).json().data;
    expect(audit.items.map((a: { action: string }) => a.action)).toEqual(['reactivated']);
    expect((await req('GET', `/api/Admin/users/${user.userId}/audit?limit=1&cursor=${audit.nextCursor}`)).json().data.items.map((a: { action: string }) => a.action)).toEqual(['deactivated']);

    // An admin does not deactivate or re-role themselves here.
    expect((await req('POST', `/api/Admin/users/${admin.userId}/deactivate`)).json().data.code).toBe('cannotChangeOwnAccount');
    expect((await req('POST', '/api/Admin/users/00000000-0000-4000-8000-000000000000/deactivate')).statusCode).toBe(404);
  });

  it('changes a role (the old session ends), resends verification to unverified users only, and searches and filters users', async () => {
    const user = await makeUser(stack.db, { role: 'User', organizationId: null, firstName: 'Rosa', lastName: 'Vega' });
    const session = await signInWith(stack.app, user.username);
    const changed = await req('PUT', `/api/Admin/users/${user.userId}/role`, { role: 'HousingAmbassador' });
    expect(changed.json().data.role).toBe('HousingAmbassador');
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers: { authorization: session.authorization } })).statusCode).toBe(401);
    expect((await req('PUT', `/api/Admin/users/${user.userId}/role`, { role: 'Root' })).statusCode).toBe(400);
    const relogin = await signInWith(stack.app, user.username);
    expect(stack.app.jwt.decode<{ role: string }>(relogin.authorization.slice(7))!.role).toBe('HousingAmbassador');

    expect((await req('POST', `/api/Admin/users/${user.userId}/resend-verification`)).json().data.code).toBe('emailAlreadyVerified');
    await stack.db.updateTable('users').set({ email_verified: false }).where('id', '=', user.userId).execute();
    expect((await req('POST', `/api/Admin/users/${user.userId}/resend-verification`)).statusCode).toBe(200);
    expect(await latestMessage(stack.db, user.userId, 'verify-email')).toBeTruthy();
    const actions = (await req('GET', `/api/Admin/users/${user.userId}/audit`)).json().data.items.map((a: { action: string }) => a.action);
    expect(actions).toEqual(['verificationResent', 'roleChanged']);

    const ambassadors = (await req('GET', '/api/Admin/users?role=HousingAmbassador&sort=name&dir=asc')).json().data.items;
    // Aki was mapped to Northside in an earlier test; the demo ambassador belongs to Riverside directly.
    expect(ambassadors.map((u: { firstName: string }) => u.firstName)).toEqual(['Aki', 'Rosa', 'Sam']);
    expect(ambassadors[0].ambassadorOrganizations).toEqual([{ organizationId: expect.any(String), name: 'Northside Property' }]);
    expect(ambassadors[2]).toMatchObject({ organizationName: 'Riverside Housing Partners', ambassadorOrganizations: [] });
    const found = (await req('GET', '/api/Admin/users?search=vega')).json().data.items;
    expect(found.map((u: { userId: string }) => u.userId)).toEqual([user.userId]);
    // Every role is listed to admins (staff included), and only admins list them.
    const all = (await req('GET', '/api/Admin/users?limit=100')).json().data.items.map((u: { role: string }) => u.role);
    expect(new Set(all)).toEqual(new Set(['User', 'Tenant', 'Manager', 'HousingAmbassador', 'Admin']));
    const manager = await signIn(stack.app, 'Manager');
    expect((await req('GET', '/api/Admin/users', undefined, manager)).statusCode).toBe(403);
  });
});
