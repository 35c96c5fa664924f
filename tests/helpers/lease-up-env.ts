import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { inject } from 'vitest';
import { createActivities } from '../../activities';
import type { ActionInput, LeaseUpAction, StartLeaseUpInput } from '../../domain';
import { S3BlobStore } from '../../infra/blobs';
import { seedDemoData } from '../../infra/seed';
import { dataConverter } from '../../infra/temporal/connection';
import { findTemporalTestServer } from '../../infra/tools';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../workflows/ids';
import { leaseUpUpdates } from '../../workflows/lease-up.messages';
import { createTestDatabase } from './stack';
import { HISTORY_FIXTURE_KEY } from './workflow-env';

/** A valid 1x1 PNG: a signature image for signing tests. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The lease-up workflow on a time-skipping Temporal test server (Java), with the real activities on
 * real PostgreSQL and MinIO. One per test file; the tests in it run serially (time is global).
 */
export async function startLeaseUpTimeSkipping() {
  const converter = dataConverter({ DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY });
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: await findTemporalTestServer() } },
    client: { dataConverter: converter },
  });
  const { db } = await createTestDatabase();
  await seedDemoData(db);
  const blobs = new S3BlobStore({ bucket: `lu-${randomUUID().slice(0, 8)}`, forcePathStyle: true, ...inject('s3') });
  await blobs.ensureBucket();
  const taskQueue = `lu-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createActivities({ db, blobs }),
    dataConverter: converter,
  });
  const running = worker.run();
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
  const send = (handle: WorkflowHandle, action: LeaseUpAction, input: ActionInput) => handle.executeUpdate(leaseUpUpdates[action], { args: [input] });

  /** The refusal code of an Update, or undefined when it was accepted. */
  const refusal = async (promise: Promise<unknown>): Promise<string | undefined> => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) return error.cause.type ?? undefined;
      throw error;
    }
    return undefined;
  };

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
    async close() {
      worker.shutdown();
      await running;
      blobs.destroy();
      await db.destroy();
      await env.teardown();
    },
  };
}
