import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, otherOrganizationManager } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string };

/**
 * The unit-offer dialog lists the units the manager may offer on one application: the
 * opportunity's units that no other active application holds (the rule OfferUnit refuses by).
 */
describe('GET /api/LeaseUpApplication/offerable-units/{id}', () => {
  let stack: Stack;
  let manager: Auth;
  let opportunityId: string;

  beforeAll(async () => {
    stack = await startStack();
    manager = await signIn(stack.app, 'Manager');
    opportunityId = (await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).orderBy('name').executeTakeFirstOrThrow()).id;
  }, 180_000);
  afterAll(() => stack?.close());

  const call = (url: string, who?: Auth) => stack.app.inject({ method: 'GET', url, headers: who ? { authorization: who.authorization } : {} });
  async function apply(): Promise<{ applicant: Auth; id: string }> {
    const applicant = await makeUser(stack, { role: 'User' });
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/LeaseUpApplication/apply',
      headers: { authorization: applicant.authorization },
      payload: { opportunityId, householdSize: 2, householdIncome: 50_000, agreeToTerms: true },
    });
    expect(res.statusCode).toBe(201);
    return { applicant, id: res.json().data.applicationId };
  }

  it("lists the opportunity's units, leaving out one another active application holds", async () => {
    const [{ id }, other] = await Promise.all([apply(), apply()]);
    const units = await stack.db.selectFrom('units').select(['id', 'unit_number']).where('opportunity_id', '=', opportunityId).orderBy('unit_number').execute();
    const before = await call(`/api/LeaseUpApplication/offerable-units/${id}`, manager);
    expect(before.statusCode).toBe(200);
    expect(before.json().data.units.map((u: { id: string }) => u.id)).toEqual(units.map((u) => u.id));
    expect(before.json().data.units[0]).toMatchObject({ unitNumber: units[0]!.unit_number, monthlyRent: expect.any(Number) });

    // The other household holds the first unit (it accepted an offer of it): not offered here any more.
    await stack.db.updateTable('applications').set({ held_unit_id: units[0]!.id }).where('id', '=', other.id).execute();
    const after = (await call(`/api/LeaseUpApplication/offerable-units/${id}`, manager)).json().data.units.map((u: { id: string }) => u.id);
    expect(after).toEqual(units.slice(1).map((u) => u.id));
    // Its own held unit stays listed for the holder (the web app leaves out what it already offered).
    const own = (await call(`/api/LeaseUpApplication/offerable-units/${other.id}`, manager)).json().data.units.map((u: { id: string }) => u.id);
    expect(own).toEqual(units.map((u) => u.id));
    // A withdrawn application holds nothing.
    await stack.db.updateTable('applications').set({ status: 'withdrawn' }).where('id', '=', other.id).execute();
    expect((await call(`/api/LeaseUpApplication/offerable-units/${id}`, manager)).json().data.units).toHaveLength(units.length);
  }, 120_000);

  it('answers only the organisation\'s manager: the applicant, another organisation and strangers are refused', async () => {
    const { applicant, id } = await apply();
    expect((await call(`/api/LeaseUpApplication/offerable-units/${id}`, applicant)).statusCode).toBe(403);
    expect((await call(`/api/LeaseUpApplication/offerable-units/${id}`, await otherOrganizationManager(stack))).statusCode).toBe(403);
    expect((await call(`/api/LeaseUpApplication/offerable-units/${id}`)).statusCode).toBe(401);
    const bad = await call('/api/LeaseUpApplication/offerable-units/not-a-uuid', manager);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400 });
  }, 120_000);
});
