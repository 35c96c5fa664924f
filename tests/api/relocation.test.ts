import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
const BASE = '/api/Relocation';
const unit = { unitNumber: '7C', bedroomType: '2 bedrooms', address: '22 W 135th St, New York, NY 10037' };

/** `/api/Relocation` (spec section 7) and the manager routes, on the real stack. */
describe('temporary relocation through the API', () => {
  let stack: Stack;
  let tenant: Auth;
  let applicant: Auth;
  let manager: Auth;
  let householdId: string;
  let id: string;

  beforeAll(async () => {
    stack = await startStack();
    [tenant, applicant, manager] = await Promise.all([signIn(stack.app, 'Tenant'), signIn(stack.app, 'User'), signIn(stack.app, 'Manager')]);
    const row = await stack.db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select('h.id').where('u.username', '=', 'tenant').executeTakeFirstOrThrow();
    householdId = row.id;
  });
  afterAll(() => stack?.close());

  const get = (url: string, headers?: Auth) => stack.app.inject({ url, ...(headers ? { headers } : {}) });
  const post = (url: string, headers: Auth, payload?: object) => stack.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

  it('GET root: not under relocation before any; guarded', async () => {
    expect((await get(BASE)).statusCode).toBe(401);
    const res = await get(BASE, tenant);
    expect(res.json().data).toEqual({ underRelocation: false, relocation: null });
    expect((await get(BASE, manager)).json().data).toEqual({ relocations: [] });
    const households = (await get(`${BASE}/manager/households`, manager)).json().data;
    expect(households).toEqual([{ householdId, name: 'Luis Ortega', building: 'Riverside Commons', unitNumber: '4B' }]);
    expect((await get(`${BASE}/manager/households`, tenant)).statusCode).toBe(403);
  });

  it('a manager starts it (once); bad input is a 4xx', async () => {
    expect((await post(`${BASE}/manager/start`, tenant, { householdId, reason: 'Boiler replacement' })).statusCode).toBe(403);
    expect((await post(`${BASE}/manager/start`, manager, { householdId: 'nope', reason: 'x' })).statusCode).toBe(400);
    expect((await post(`${BASE}/manager/start`, manager, { householdId })).statusCode).toBe(400);
    const res = await post(`${BASE}/manager/start`, manager, { householdId, reason: 'Boiler replacement' });
    expect(res.statusCode).toBe(201);
    id = res.json().data.relocationId;
    await eventually(async () => (await get(BASE, tenant)).json().data.relocation?.status === 'awaiting_profile');
    const again = await post(`${BASE}/manager/start`, manager, { householdId, reason: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().data.code).toBe('relocationAlreadyActive');
  });

  it('submit profile, offers (decline is final), slots, booking, move, extension, return', async () => {
    expect((await post(`${BASE}/submit-profile/bad`, tenant)).statusCode).toBe(400);
    expect((await post(`${BASE}/submit-profile/00000000-0000-4000-8000-000000000000`, tenant)).statusCode).toBe(404);
    expect((await post(`${BASE}/submit-profile/${id}`, applicant)).statusCode).toBe(403);
    await stack.db.updateTable('households').set({ profile_completion: 80 }).where('id', '=', householdId).execute();
    const incomplete = await post(`${BASE}/submit-profile/${id}`, tenant);
    expect(incomplete.statusCode).toBe(422);
    expect(incomplete.json().data.code).toBe('profileIncomplete');
    await stack.db.updateTable('households').set({ profile_completion: 100 }).where('id', '=', householdId).execute();
    expect((await post(`${BASE}/submit-profile/${id}`, tenant)).json().data.status).toBe('awaiting_offer');
    expect((await post(`${BASE}/submit-profile/${id}`, tenant)).statusCode).toBe(409);

    expect((await post(`${BASE}/manager/${id}/offer-unit`, manager, { unitNumber: '7C' })).statusCode).toBe(400);
    let view = (await post(`${BASE}/manager/${id}/offer-unit`, manager, unit)).json().data;
    const first = view.offers[0].offerId;
    expect((await post(`${BASE}/unit-offers/garbage/decline`, tenant)).statusCode).toBe(400);
    expect((await post(`${BASE}/unit-offers/${first}/decline`, tenant)).json().data.status).toBe('awaiting_offer');
    view = (await post(`${BASE}/manager/${id}/offer-unit`, manager, { ...unit, unitNumber: '8D' })).json().data;
    const declinedAgain = await post(`${BASE}/${id}/unit-offers/${first}/accept`, tenant);
    expect(declinedAgain.statusCode).toBe(409);
    expect(declinedAgain.json().data.code).toBe('offerNotOpen');
    expect((await post(`${BASE}/${id}/unit-offers/${view.offers[1].offerId}/accept`, manager)).statusCode).toBe(403);
    view = (await post(`${BASE}/${id}/unit-offers/${view.offers[1].offerId}/accept`, tenant)).json().data;
    expect(view.status).toBe('scheduling');

    const slots = (await get(`${BASE}/slots/${id}`, tenant)).json().data.slots;
    expect(slots.length).toBeGreaterThan(0);
    expect((await get(`${BASE}/slots/${id}`, applicant)).statusCode).toBe(403);
    expect((await post(`${BASE}/book-slot`, tenant, { relocationId: id })).statusCode).toBe(400);
    const taken = await post(`${BASE}/book-slot`, tenant, { relocationId: id, slotId: '1999-01-01-am' });
    expect(taken.json().data.code).toBe('slotNotAvailable');
    expect((await post(`${BASE}/book-slot`, tenant, { relocationId: id, slotId: slots[0].slotId })).json().data.bookedSlot).toEqual(slots[0]);

    await eventually(async () => {
      const tasks = (await get('/api/ManagerTasks?caseKind=relocation&limit=100', manager)).json().data.items as { caseId: string; action: string }[];
      return tasks.some((t) => t.caseId === id && t.action === 'ConfirmMove');
    });
    view = (await post(`${BASE}/manager/${id}/confirm-move`, manager)).json().data;
    expect(view).toMatchObject({ status: 'relocated', underRelocation: true });
    expect((await get(BASE, tenant)).json().data.underRelocation).toBe(true);
    // The signed-in user object (spec section 3) follows once the move is projected.
    await eventually(async () => (await get(`/api/Account/getuserdetails/${tenant.userId}`, tenant)).json().data.underRelocation === true);

    expect((await post(`${BASE}/manager/${id}/extend`, manager, { until: 'soon', reason: 'Works delayed' })).statusCode).toBe(400);
    expect((await post(`${BASE}/manager/${id}/extend`, tenant, { until: '2099-01-01', reason: 'Works delayed' })).statusCode).toBe(403);
    const early = await post(`${BASE}/manager/${id}/extend`, manager, { until: '2000-01-01', reason: 'Works delayed' });
    expect(early.json().data.code).toBe('invalidExtension');
    const until = new Date(Date.parse(view.endsAt) + 30 * 86_400_000).toISOString().slice(0, 10);
    view = (await post(`${BASE}/manager/${id}/extend`, manager, { until, reason: 'Works delayed' })).json().data;
    expect(view.endsAt).toBe(`${until}T23:59:59.999Z`);

    view = (await post(`${BASE}/manager/${id}/confirm-return`, manager)).json().data;
    expect(view).toMatchObject({ status: 'returned', underRelocation: false });
    expect((await post(`${BASE}/manager/${id}/confirm-return`, manager)).statusCode).toBe(409);
    const list = await eventually(async () => {
      const r = (await get(BASE, manager)).json().data.relocations;
      return r[0]?.status === 'returned' && r;
    });
    expect(list[0]).toMatchObject({ relocationId: id, householdName: 'Luis Ortega', underRelocation: false });
  });
});
