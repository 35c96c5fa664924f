import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredApplications } from '../../activities/retention';
import { EncryptingBlobStore, S3BlobStore, type BlobStore } from '../../infra/blobs';
import { keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { declaredIncomeColumns } from '../../infra/db/repositories/declared-income';
import { computeCompletion } from '../../infra/db/repositories/profile-completion';
import { seedDemoData } from '../../infra/seed';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { createTestDatabase, testConfig } from '../helpers/stack';

/**
 * The retention sweep's activity on real PostgreSQL and MinIO: it leaves no file of a purged
 * application behind (every letter version, signed copy and signature image under its prefix), races
 * nothing (a household that gains an open condition after the scan keeps everything), deletes files
 * only after its commit from a queue that outlives a crash, and computes the profile's completion again.
 */
describe('retention purge (activity)', () => {
  let db: Db;
  let s3: S3BlobStore;
  let store: BlobStore;
  const CLOSED_AT = new Date('2024-01-15T12:00:00Z');

  beforeAll(async () => {
    const created = await createTestDatabase();
    db = created.db;
    const config = testConfig(created.url);
    useDataKeys(keyRingFromConfig(config));
    s3 = new S3BlobStore({ bucket: config.S3_BUCKET!, region: config.S3_REGION, endpoint: config.S3_ENDPOINT, accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY, forcePathStyle: true });
    await s3.ensureBucket();
    store = new EncryptingBlobStore(s3, keyRingFromConfig(config));
    await seedDemoData(db, new Date('2024-01-01T00:00:00Z'));
    await db.updateTable('organizations').set({ retention_days: 30 }).execute();
  });
  afterAll(async () => {
    s3?.destroy();
    await db?.destroy();
  });

  const purge = (blobs: BlobStore = store) => purgeExpiredApplications(db, blobs, { now: Date.now(), limit: 1000 });
  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const key of store.list(prefix)) keys.push(key);
    return keys;
  };
  const application = (id: string) => db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** A household with one application closed long ago, a document on file, a mailed letter, and the application's letters and signature images. */
  async function household() {
    const suffix = randomUUID().slice(0, 8);
    const org = await db.selectFrom('organizations').select('id').orderBy('id').executeTakeFirstOrThrow();
    const opportunities = await db.selectFrom('opportunities').select('id').where('organization_id', '=', org.id).orderBy('id').limit(2).execute();
    const user = await db.insertInto('users').values({ username: `p-${suffix}`, email: `p-${suffix}@example.org`, first_name: 'Ret', last_name: suffix, role: 'User', password_hash: 'unused' }).returning('id').executeTakeFirstOrThrow();
    const h = await db.insertInto('households').values({ head_user_id: user.id, household_size: 2, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow();
    const insertApplication = async (status: 'closed' | 'in_review', opportunityId: string) => {
      const id = randomUUID();
      await db
        .insertInto('applications')
        .values({
          id, workflow_id: leaseUpWorkflowId(id), household_id: h.id, opportunity_id: opportunityId, organization_id: org.id, applicant_user_id: user.id, log_number: `P-${suffix}-${status}`,
          status, current_step: 'documentation_review', pending_tasks: '[]', household_size: 2, ...declaredIncomeColumns(45_000), applied_at: CLOSED_AT, state_updated_at: CLOSED_AT, state_version: 3,
          view: JSON.stringify({ history: [{ action: 'Apply' }] }),
        })
        .execute();
      return id;
    };
    const closed = await insertApplication('closed', opportunities[0]!.id);
    const pdf = (what: string) => Buffer.from(`%PDF-1.4 ${what}`);
    // Every version of the lease-up letters, the signed copy of one, and the signature images drawn for it.
    const prefix = `applications/${closed}/`;
    const prefixed = [`${prefix}letters/tic-v1.pdf`, `${prefix}letters/tic-v2.pdf`, `${prefix}letters/tic-v2-signed-${user.id}.pdf`, `${prefix}letters/lease-v1.pdf`, `${prefix}signatures/${user.id}-${randomUUID()}.png`];
    for (const key of prefixed) await store.put(key, pdf(key), key.endsWith('.png') ? 'image/png' : 'application/pdf');
    await db
      .insertInto('signed_letters')
      .values({ signed_key: prefixed[2]!, case_kind: 'lease_up', case_id: closed, letter: 'tic', letter_key: prefixed[1]!, sha256: '0'.repeat(64), signer_id: user.id, signed_at: CLOSED_AT })
      .execute();
    const documentKey = `households/${h.id}/documents/${randomUUID()}`;
    await store.put(documentKey, pdf('pay stub'), 'application/pdf');
    await db
      .insertInto('household_documents')
      .values({ household_id: h.id, document_type: 'pay_stub', file_name: 'stub.pdf', blob_key: documentKey, content_type: 'application/pdf', size_bytes: 17, uploaded_by: user.id, uploaded_at: CLOSED_AT })
      .execute();
    const mailedKey = `households/${h.id}/letters/${randomUUID()}`;
    await store.put(mailedKey, pdf('notice'), 'application/pdf');
    await db.insertInto('mailed_letters').values({ organization_id: org.id, household_id: h.id, application_id: closed, letter: 'notice', language: 'en', blob_key: mailedKey, dedupe_key: `purge-${suffix}` }).execute();
    return { householdId: h.id, userId: user.id, closed, prefix, prefixed, documentKey, mailedKey, openApplication: () => insertApplication('in_review', opportunities[1]!.id) };
  }

  it('removes every file under the application prefix, its letters and documents, and computes the completion again', async () => {
    const h = await household();
    expect(await keysUnder(h.prefix)).toHaveLength(5);
    await purge();

    expect((await application(h.closed)).purged_at).not.toBeNull();
    expect(await keysUnder(h.prefix)).toEqual([]);
    expect(await store.get(h.mailedKey)).toBeNull();
    expect(await store.get(h.documentKey)).toBeNull();
    expect(await db.selectFrom('signed_letters').select('signed_key').where('case_id', '=', h.closed).execute()).toEqual([]);
    expect(await db.selectFrom('household_documents').select('id').where('household_id', '=', h.householdId).execute()).toEqual([]);
    expect(await db.selectFrom('blob_deletions').select('blob_key').where('blob_key', 'in', [...h.prefixed, h.mailedKey, h.documentKey]).execute()).toEqual([]);
    // The documents section no longer counts the files that are gone.
    const stored = await db.selectFrom('households').select('profile_completion').where('id', '=', h.householdId).executeTakeFirstOrThrow();
    expect(stored.profile_completion).toBe((await computeCompletion(db, h.householdId)).percent);
    expect(stored.profile_completion).toBeLessThan(100);
  });

  it('keeps everything of a household that gains an open application between the scan and the purge', async () => {
    const h = await household();
    let opened: string | null = null;
    const openOnce = async (key: string) => {
      if (!opened && (key.includes(h.closed) || key.includes(h.householdId))) opened = await h.openApplication();
    };
    // The first file the sweep touches for this household (after its scan, before its purge): a new application arrives then.
    const racing: BlobStore = {
      put: (key, body, type) => store.put(key, body, type),
      get: (key) => store.get(key),
      ping: () => store.ping(),
      async delete(key) {
        await openOnce(key);
        return store.delete(key);
      },
      async *list(prefix = '') {
        await openOnce(prefix);
        yield* store.list(prefix);
      },
    };
    await purge(racing);

    expect(opened).not.toBeNull();
    const kept = await application(h.closed);
    expect(kept.purged_at).toBeNull();
    expect(kept.household_income_encrypted).not.toBeNull();
    expect(await keysUnder(h.prefix)).toHaveLength(5);
    expect(await store.get(h.mailedKey)).not.toBeNull();
    expect(await store.get(h.documentKey)).not.toBeNull();
    expect(await db.selectFrom('household_documents').select('id').where('household_id', '=', h.householdId).execute()).toHaveLength(1);
    expect(await db.selectFrom('privacy_audit').select('id').where('household_id', '=', h.householdId).execute()).toEqual([]);
  });

  it('deletes files after its commit: a store failing then leaves them queued, and the next run deletes them', async () => {
    const h = await household();
    const failing: BlobStore = { ...bound(store), delete: () => Promise.reject(new Error('store unreachable')) };
    await purge(failing);

    // The purge is committed; its files wait in the queue.
    expect((await application(h.closed)).purged_at).not.toBeNull();
    expect(await keysUnder(h.prefix)).toHaveLength(5);
    const queued = (await db.selectFrom('blob_deletions').select('blob_key').execute()).map((r) => r.blob_key);
    expect(queued).toEqual(expect.arrayContaining([...h.prefixed, h.mailedKey, h.documentKey]));

    await purge();
    expect(await keysUnder(h.prefix)).toEqual([]);
    expect(await store.get(h.mailedKey)).toBeNull();
    expect(await store.get(h.documentKey)).toBeNull();
    expect(await db.selectFrom('blob_deletions').select('blob_key').execute()).toEqual([]);
  });
});

/** The store's methods bound to it, to replace one of them. */
function bound(store: BlobStore): BlobStore {
  return { put: store.put.bind(store), get: store.get.bind(store), delete: store.delete.bind(store), ping: store.ping.bind(store), list: store.list.bind(store) };
}
