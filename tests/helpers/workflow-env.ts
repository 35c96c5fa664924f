import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { inject } from 'vitest';
import type { StartLeaseUpInput } from '../../domain';
import { seedDemoData } from '../../infra/seed';
import { dataConverter } from '../../infra/temporal/connection';
import { createPortalWorker } from '../../worker/create-worker';
import { leaseUpApplicationId } from '../../infra/temporal/ids';
import { createTestDatabase } from './stack';
import { S3BlobStore } from '../../infra/blobs';

/**
 * Fixed key for the recorded histories in tests/histories: they hold only made-up test data, and
 * replaying them needs the key they were encrypted with, exactly as an operator's replay would.
 */
export const HISTORY_FIXTURE_KEY = Buffer.alloc(32, 7).toString('base64');

/** A worker on its own task queue against the shared dev server, with the production data converter. */
export async function startWorkflowEnv(key = HISTORY_FIXTURE_KEY) {
  const { db } = await createTestDatabase();
  await seedDemoData(db);
  const config = {
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: `wf-${randomUUID()}`,
    DATA_ENCRYPTION_KEY: key,
  };
  const blobs = new S3BlobStore({ bucket: 'unused', forcePathStyle: true, ...inject('s3') });
  const { worker, connection: workerConnection } = await createPortalWorker(config, { db, blobs }, {
    workflowBundle: { codePath: inject('workflowBundlePath') },
    workflowsPath: undefined,
  });
  const running = worker.run();
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
  const client = new Client({ connection, dataConverter: dataConverter(config) });
  const opportunity = await db.selectFrom('opportunities').selectAll().executeTakeFirstOrThrow();

  /** Input of an application by a new household (so each test has its own workflow and read-model row). */
  const applicationInput = async (): Promise<StartLeaseUpInput> => {
    const suffix = randomUUID().slice(0, 8);
    const user = await db
      .insertInto('users')
      .values({ username: `wf-${suffix}`, email: `wf-${suffix}@example.org`, first_name: 'Test', last_name: suffix, role: 'User', password_hash: 'unused' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const household = await db.insertInto('households').values({ head_user_id: user.id, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow();
    return {
      applicationId: leaseUpApplicationId(opportunity.id, household.id),
      householdId: household.id,
      opportunityId: opportunity.id,
      organizationId: opportunity.organization_id,
      applicantUserId: user.id,
      householdSize: 3,
      householdIncome: 61_234,
    };
  };

  return {
    db,
    client,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    applicationInput,
    async close() {
      worker.shutdown();
      await running;
      await workerConnection.close();
      await connection.close();
      blobs.destroy();
      await db.destroy();
    },
  };
}
