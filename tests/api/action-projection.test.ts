import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseUpView } from '../../domain';
import { LEASE_UP_KIND } from '../../api/services/case-kinds';
import { tryActOnCase } from '../../api/services/cases';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { getLeaseUpView } from '../../workflows/lease-up.messages';
import { applyToSeededRental, makeUser } from '../helpers/lease-up-users';
import { eventually, startStack, type Stack } from '../helpers/stack';

/**
 * An action's view reaches the read model twice: the API writes the view the Update answered before
 * it answers (so a list read right after shows the action), and the workflow projects the same
 * version after its answer. Each write is version-guarded, so the second writes nothing; and when the
 * API dies between the Update's answer and its own write, the workflow's write still lands.
 */
describe("an action's read model", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });

  const row = (id: string) => stack.db.selectFrom('applications').select(['state_version', 'household_size', 'view']).where('id', '=', id).executeTakeFirstOrThrow();

  it('is written before the answer leaves: the row has the answered version at once', async () => {
    const applicant = await makeUser(stack, { role: 'User' });
    const id = await applyToSeededRental(stack, applicant);
    const answer = await stack.app.inject({
      method: 'POST',
      url: `/api/LeaseUpApplication/update-info/${id}`,
      headers: { authorization: applicant.authorization },
      payload: { householdSize: 3, householdIncome: 57_000 },
    });
    expect(answer.statusCode).toBe(200);
    const answered = answer.json().data as LeaseUpView;
    expect(answered.householdSize).toBe(3);
    // No wait: the API wrote this version before answering.
    const now = await row(id);
    expect(now.state_version).toBe(answered.version);
    expect(now.household_size).toBe(3);
    const listed = await stack.app.inject({ method: 'GET', url: '/api/LeaseUpApplication/getApplications', headers: { authorization: applicant.authorization } });
    expect(JSON.stringify(listed.json().data)).toContain(id);
  }, 60_000);

  it("lands when the API dies between the Update's answer and its write", async () => {
    const applicant = await makeUser(stack, { role: 'User' });
    const id = await applyToSeededRental(stack, applicant);
    const before = await row(id);
    const died = new Error('the API process ended here');
    // The API's own path up to the answer, whose projection never runs: the process is gone.
    const acting = tryActOnCase(
      { db: stack.db, temporal: stack.temporal },
      { ...LEASE_UP_KIND, project: () => Promise.reject(died) },
      id,
      'UpdateInfo',
      { householdSize: 4, householdIncome: 61_000 },
      { actor: { userId: applicant.userId, role: 'applicant', impersonatedBy: null }, projected: null },
    );
    await expect(acting).rejects.toBe(died);
    const live = await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).query(getLeaseUpView);
    expect(live.householdSize).toBe(4);
    expect(live.version).toBeGreaterThan(before.state_version);
    // The workflow's own projection, after its answer, writes the version nobody else wrote.
    const landed = await eventually(async () => {
      const r = await row(id);
      return r.state_version >= live.version ? r : null;
    }, 30_000, "the workflow's projection of the unwritten version");
    expect(landed.household_size).toBe(4);
    expect((landed.view as LeaseUpView).version).toBe(landed.state_version);
  }, 60_000);
});
