import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { createActivities } from '../../activities';
import { S3BlobStore } from '../../infra/blobs';
import { createKeyRing } from '../../infra/crypto';
import { hasDataKeys, useDataKeys } from '../../infra/data-keys';
import { seedDemoData } from '../../infra/seed';
import { dataConverter } from '../../infra/temporal/connection';
import { registerCaseSearchAttributes } from '../../infra/temporal/search-attributes';
import { findTemporalTestServer } from '../setup/temporal-test-server';
import { createTestDatabase } from './stack';
import { HISTORY_FIXTURE_KEY } from './workflow-env';

/**
 * A time-skipping Temporal test server (Java) with the portal worker on real PostgreSQL and MinIO,
 * for month-long timers. One per test file; tests in it run serially (time is global to the server).
 */
export async function startTimeSkippingEnv() {
  const converter = dataConverter({ DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY });
  // Activities seal what they store (an approved recertification's record), as the real worker does.
  if (!hasDataKeys()) useDataKeys(createKeyRing(HISTORY_FIXTURE_KEY));
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: await findTemporalTestServer() } },
    client: { dataConverter: converter },
  });
  // Case workflows upsert their search attributes: the test server refuses unregistered ones.
  await registerCaseSearchAttributes(env.connection, env.namespace ?? 'default');
  const { db } = await createTestDatabase();
  await seedDemoData(db);
  const blobs = new S3BlobStore({ bucket: `ts-${randomUUID().slice(0, 8)}`, forcePathStyle: true, ...inject('s3') });
  await blobs.ensureBucket();
  const taskQueue = `ts-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: createActivities({ db, blobs }),
    dataConverter: converter,
  });
  const running = worker.run();

  /** A tenant household of the demo organisation with its own user and tenancy. */
  const tenantHousehold = async (size = 2) => {
    const suffix = randomUUID().slice(0, 8);
    const org = await db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const user = await db
      .insertInto('users')
      .values({ username: `t-${suffix}`, email: `t-${suffix}@example.org`, first_name: 'Tenant', last_name: suffix, role: 'Tenant', password_hash: 'unused', organization_id: org.id, preferred_language: 'es' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const household = await db.insertInto('households').values({ head_user_id: user.id, organization_id: org.id, household_size: size, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('tenancies')
      .values({ household_id: household.id, organization_id: org.id, building_name: 'Test House', address: '1 Test St', unit_number: '1A', bedrooms: '1 bedroom', lease_start: '2024-01-01', declared_annual_income: 40_000 })
      .execute();
    return { userId: user.id, householdId: household.id, organizationId: org.id };
  };

  return {
    env,
    db,
    blobs,
    client: env.client,
    taskQueue,
    tenantHousehold,
    async close() {
      worker.shutdown();
      await running;
      blobs.destroy();
      await db.destroy();
      await env.teardown();
    },
  };
}
