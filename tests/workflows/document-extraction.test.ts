import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StoredExtraction } from '../../domain/extraction';
import { EXTRACTION_MESSAGES } from '../../domain';
import { EncryptingBlobStore, S3BlobStore } from '../../infra/blobs';
import { keyRingFromConfig } from '../../infra/crypto';
import { openJson } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { seedDemoData } from '../../infra/seed';
import { dataConverter } from '../../infra/temporal/connection';
import { documentExtractionWorkflowId } from '../../infra/temporal/ids';
import { createPortalWorker } from '../../worker/create-worker';
import { recordHistory } from '../helpers/histories';
import { createTestDatabase } from '../helpers/stack';
import { BANK_STATEMENTS, samplePdf } from '../helpers/statements';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';

/** History fields that are clocks and counters, never a payload. */
const EVENT_NUMBERS = new Set(['eventTime', 'eventId', 'taskId', 'historySizeBytes', 'scheduledEventId', 'startedEventId', 'workflowTaskCompletedEventId']);

/**
 * The document-extraction workflow on its own: its activity reads the file from
 * the blob store and stores the figures sealed; only the status passes through the history. A file
 * that cannot be read fails at once (not retried) and the reading says so. Both runs are recorded
 * for the replay test (RECORD_HISTORIES=1).
 */
describe('document-extraction workflow', () => {
  let db: Db;
  let client: Client;
  let close: () => Promise<void>;
  let blobs: EncryptingBlobStore;
  let householdId: string;
  let userId: string;
  const taskQueue = `wf-${randomUUID()}`;

  beforeAll(async () => {
    ({ db } = await createTestDatabase());
    await seedDemoData(db);
    const s3 = inject('s3');
    const config = { TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_NAMESPACE: 'default', TEMPORAL_TASK_QUEUE: taskQueue, DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY };
    const store = new S3BlobStore({ bucket: `wf-${randomUUID().slice(0, 8)}`, forcePathStyle: true, ...s3 });
    await store.ensureBucket();
    blobs = new EncryptingBlobStore(store, keyRingFromConfig(config));
    const { worker, connection: workerConnection } = await createPortalWorker(config, { db, blobs }, { workflowBundle: { codePath: inject('workflowBundlePath') }, workflowsPath: undefined });
    const running = worker.run();
    const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
    client = new Client({ connection, dataConverter: dataConverter(config) });
    const head = await db.selectFrom('households').select(['id', 'head_user_id']).executeTakeFirstOrThrow();
    householdId = head.id;
    userId = head.head_user_id;
    close = async () => {
      worker.shutdown();
      await running;
      await workerConnection.close();
      await connection.close();
      store.destroy();
      await db.destroy();
    };
  }, 120_000);
  afterAll(() => close?.());

  async function documentWithReading(body: Buffer, contentType: string) {
    const documentId = randomUUID();
    const key = `households/${householdId}/documents/${documentId}`;
    await blobs.put(key, body, contentType);
    await db.insertInto('household_documents').values({
      id: documentId, household_id: householdId, member_id: null, income_id: null, asset_id: null, document_type: 'bank_statement', file_name: 'statement',
      blob_key: key, content_type: contentType, size_bytes: body.length, uploaded_by: userId, uploaded_at: new Date(), review_reason: null, replaces_document_id: null, pay_date: null,
    }).execute();
    const extractionId = randomUUID();
    await db.insertInto('document_extractions').values({ id: extractionId, household_id: householdId, document_id: documentId, document_type: 'bank_statement', status: 'pending' }).execute();
    return extractionId;
  }

  it('reads a statement, stores its figures sealed, and keeps them out of the history', async () => {
    const extractionId = await documentWithReading(await samplePdf(BANK_STATEMENTS[0]!), 'application/pdf');
    const handle = await client.workflow.start('documentExtraction', { workflowId: documentExtractionWorkflowId(extractionId), taskQueue, args: [{ extractionId }] });
    expect(await handle.result()).toBe('ready');
    const row = await db.selectFrom('document_extractions').selectAll().where('id', '=', extractionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ready', failure: null, confirmed_at: null });
    expect(row.result_sealed).not.toContain('4821');
    const stored = openJson<StoredExtraction>(JSON.parse(row.result_sealed!));
    expect(stored.extracted.fields).toMatchObject({ last4: { value: '4821' }, balance: { value: 3456.78 } });
    // The history holds ids and statuses only: no figure read from the document.
    // Times and event numbers are left out: a timestamp's digits can spell a figure by chance.
    const history = JSON.stringify(await handle.fetchHistory(), (key, value) => (EVENT_NUMBERS.has(key) ? undefined : value));
    for (const figure of ['4821', '3456', 'Riverside']) expect(history).not.toContain(figure);
    await recordHistory('document-extraction-ready', handle);
  }, 120_000);

  it('marks a file it cannot read as failed at once, with a message for the resident', async () => {
    // HEIC passes the upload's content check but has no reader here: not retried.
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic'), Buffer.alloc(64)]);
    const extractionId = await documentWithReading(heic, 'image/heic');
    const handle = await client.workflow.start('documentExtraction', { workflowId: documentExtractionWorkflowId(extractionId), taskQueue, args: [{ extractionId }] });
    expect(await handle.result()).toBe('failed');
    const row = await db.selectFrom('document_extractions').selectAll().where('id', '=', extractionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', failure: EXTRACTION_MESSAGES.unreadable, result_sealed: null });
    const started = (await handle.fetchHistory()).events?.filter((e) => e.activityTaskStartedEventAttributes) ?? [];
    expect(started.map((e) => e.activityTaskStartedEventAttributes?.attempt)).toEqual([1, 1]);
    await recordHistory('document-extraction-failed', handle);
  }, 120_000);
});
