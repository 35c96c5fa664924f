import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { LeaseUpAction, StartLeaseUpInput } from '../../domain';
import type { AnyActionInput as ActionInput } from './case-input';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { leaseUpUpdates } from '../../workflows/lease-up.messages';
import { refusal } from './refusal';
import { startTimeSkippingEnv } from './time-skipping';

/** A valid 1x1 PNG: a signature image for signing tests. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The lease-up workflow on the time-skipping environment (tests/helpers/time-skipping.ts), with
 * helpers to apply and act. One per test file; the tests in it run serially (time is global).
 */
export async function startLeaseUpTimeSkipping() {
  const base = await startTimeSkippingEnv();
  const { env, db, blobs, taskQueue } = base;
  const opportunity = await db.selectFrom('opportunities').selectAll().where('published', '=', true).orderBy('name').executeTakeFirstOrThrow();
  const units = await db.selectFrom('units').selectAll().where('opportunity_id', '=', opportunity.id).orderBy('unit_number').execute();

  /** A new household applies (each test has its own workflow and read-model rows). */
  const start = async (settings?: StartLeaseUpInput['settings']) => {
    const suffix = randomUUID().slice(0, 8);
    const user = await db
      .insertInto('users')
      .values({ username: `lu-${suffix}`, email: `lu-${suffix}@example.org`, first_name: 'Lease', last_name: suffix, role: 'User', password_hash: 'unused' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const household = await db.insertInto('households').values({ head_user_id: user.id, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow();
    const input: StartLeaseUpInput = {
      applicationId: leaseUpApplicationId(opportunity.id, household.id),
      householdId: household.id,
      opportunityId: opportunity.id,
      organizationId: opportunity.organization_id,
      applicantUserId: user.id,
      householdSize: 2,
      householdIncome: 48_500,
      ...(settings ? { settings } : {}),
    };
    const handle = await env.client.workflow.start('leaseUpApplication', { workflowId: leaseUpWorkflowId(input.applicationId), taskQueue, args: [input] });
    return { handle, input };
  };

  const applicant = (userId: string, extra: Partial<ActionInput> = {}): ActionInput => ({ actor: { userId, role: 'applicant', impersonatedBy: null }, ...extra });
  const manager = (extra: Partial<ActionInput> = {}): ActionInput => ({ actor: { userId: randomUUID(), role: 'manager', impersonatedBy: null }, ...extra });
  const send = (handle: WorkflowHandle, action: LeaseUpAction, input: ActionInput) => handle.executeUpdate(leaseUpUpdates[action], { args: [input as never] });


  /** A signature image in blob storage, as the API stores it before signing. */
  const signature = async (userId: string, signerName = 'Lease Signer') => {
    const signatureKey = `tests/signatures/${randomUUID()}.png`;
    await blobs.put(signatureKey, TINY_PNG, 'image/png');
    return { signatureKey, ipAddress: '203.0.113.7', signerName, userId };
  };

  /** ISO time `hours` after the test server's current (skipped) time. */
  const inHours = async (hours: number) => new Date((await env.currentTimeMs()) + hours * 3_600_000).toISOString();

  return {
    env,
    db,
    blobs,
    client: env.client,
    opportunity,
    units,
    start,
    applicant,
    manager,
    send,
    refusal,
    signature,
    inHours,
    close: base.close,
  };
}
