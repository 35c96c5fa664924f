import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { EncryptingBlobStore, LocalBlobStore, S3BlobStore } from '../../infra/blobs';
import { createFieldCipher, createKeyRing, isSealedBlob, sealedBlobKeyId } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { rotateAll } from '../../infra/key-rotation';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { adultMember, multipart, newResident, tinyPdf } from '../helpers/household';

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Everything PostgreSQL holds, table by table, as text. */
async function databaseText(stack: Stack): Promise<string> {
  const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(stack.db);
  const parts: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(stack.db);
    parts.push(...rows.rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/**
 * Privacy promises kept: income amounts and fields sealed in PostgreSQL, documents sealed
 * in the bucket (and S3 server-side encrypted) and on disk (0600), and a key rotation after which
 * every income and document still opens, with the new key alone.
 */
describe('encryption at rest', () => {
  let stack: Stack;
  const marker = `PLAIN-DOCUMENT-BYTES-${randomUUID()}`;
  let resident: Awaited<ReturnType<typeof newResident>>;
  let incomeIds: string[] = [];
  let documentId = '';

  beforeAll(async () => {
    stack = await startStack();
    resident = await newResident(stack.app, stack.db);
  });
  afterAll(() => stack?.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    stack.app.inject({ method, url, headers: resident.headers, ...(payload ? { payload } : {}) });

  it('keeps no plain income amount or income field in PostgreSQL, and totals and completion still work', async () => {
    await call('POST', '/api/Household/profile');
    const head = await call('POST', '/api/Household/CreateApplicantOrMember', adultMember({ ssn: '219-09-9999' }));
    expect(head.statusCode).toBe(201);
    const memberId = head.json().data.id as string;
    const first = await call('POST', '/api/HouseholdIncome/CreateOrUpdateIncome', {
      incomeType: 'employment', memberId, employerName: 'Zephyr Quilting Cooperative', startDate: '2021-02-01', amount: 3917.43, frequency: 'bi_weekly',
    });
    expect(first.statusCode).toBe(200);
    const second = await call('POST', '/api/HouseholdIncome/CreateOrUpdateIncome', { incomeType: 'pension', memberId, sourceName: 'Quillmark Pension Fund', amount: 2741.19, frequency: 'monthly' });
    expect(second.statusCode).toBe(200);
    incomeIds = [first.json().data.id, second.json().data.id];
    const asset = await call('POST', '/api/HouseholdAssets/BankAccounts', { kind: 'BankAccounts', memberId, accountType: 'checking', institution: 'Brindle Credit Union', last4: '5531', balance: 6120.44, annualIncome: 3.07 });
    expect(asset.statusCode).toBe(201);

    const listed = (await call('GET', '/api/HouseholdIncome')).json().data as { id: string; amount: number; annualAmount: number; employerName?: string }[];
    expect(listed.map((i) => i.amount)).toEqual([3917.43, 2741.19]);
    expect(listed[0]!.employerName).toBe('Zephyr Quilting Cooperative');
    expect(listed[1]!.annualAmount).toBeCloseTo(32_894.28, 2);

    const text = await databaseText(stack);
    for (const plain of ['3917.43', '2741.19', '101853.18', '32894.28', 'Zephyr Quilting', 'Quillmark', '219099999', '219-09-9999', 'Brindle', '6120.44']) {
      expect(text, `found ${plain} in PostgreSQL`).not.toContain(plain);
    }
    // The summary still computes completion from the sealed entries (income section done).
    const profile = (await call('GET', '/api/Household/profile')).json().data;
    expect(profile.completion.sections.income).toBe(true);
  });

  it('keeps no plain document bytes in MinIO, and asks S3 for server-side encryption', async () => {
    const pdf = Buffer.concat([tinyPdf(), Buffer.from(`\n% ${marker}\n`)]);
    const m = multipart({ documentType: 'other' }, [{ name: 'letter.pdf', body: pdf }]);
    const upload = await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, ...resident.headers } });
    expect(upload.statusCode).toBe(201);
    documentId = upload.json().data[0].id;
    // Read back through the API: the same bytes.
    const got = await call('GET', `/api/Document/GetDocument/${documentId}`);
    expect(Buffer.from(got.json().data.fileContent, 'base64').equals(pdf)).toBe(true);

    // What the bucket holds is sealed by the portal...
    const inner = (stack.blobs as EncryptingBlobStore).inner as S3BlobStore;
    const key = (await stack.db.selectFrom('household_documents').select('blob_key').where('id', '=', documentId).executeTakeFirstOrThrow()).blob_key!;
    const raw = await inner.get(key);
    expect(isSealedBlob(raw!.body)).toBe(true);
    expect(raw!.body.includes(marker)).toBe(false);
    // ...server-side encrypted by S3...
    const head = await inner.client.send(new HeadObjectCommand({ Bucket: stack.config.S3_BUCKET!, Key: key }));
    expect(head.ServerSideEncryption).toBe('AES256');
    // ...and no file of MinIO's disk holds the bytes.
    for await (const file of filesUnder(inject('minioDataDir'))) expect((await readFile(file)).includes(marker), file).toBe(false);
  });

  it("the demo households' pay stubs are on file: the seed writes what it refers to, sealed", async () => {
    for (const role of ['User', 'Tenant'] as const) {
      const { authorization } = await signIn(stack.app, role);
      const list = await stack.app.inject({ method: 'GET', url: '/api/Document', headers: { authorization } });
      expect(list.statusCode).toBe(200);
      const stub = (list.json().data.items ?? list.json().data).find((d: { fileName: string }) => d.fileName === 'pay-stub.pdf') as { id: string } | undefined;
      expect(stub, role).toBeDefined();
      const got = await stack.app.inject({ method: 'GET', url: `/api/Document/GetDocument/${stub!.id}`, headers: { authorization } });
      expect(got.statusCode).toBe(200);
      expect(Buffer.from(got.json().data.fileContent, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('writes local blob files sealed, 0600, in 0700 folders', async () => {
    const root = await mkdtemp(join(tmpdir(), 'portal-sealed-'));
    try {
      const store = new EncryptingBlobStore(new LocalBlobStore(root), createKeyRing(stack.config.DATA_ENCRYPTION_KEY));
      const key = `households/${randomUUID()}/documents/${randomUUID()}`;
      await store.put(key, Buffer.from(marker), 'application/pdf');
      const file = join(root, 'objects', key);
      expect((await readFile(file)).includes(marker)).toBe(false);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(`${file}.type`)).mode & 0o777).toBe(0o600);
      expect((await stat(join(root, 'objects', key.split('/')[0]!))).mode & 0o777).toBe(0o700);
      expect((await store.get(key))?.body.toString()).toBe(marker);
      const listed: string[] = [];
      for await (const k of store.list('')) listed.push(k);
      expect(listed).toEqual([key]);
      // A file copied under another household's path does not open (the path is bound to the seal).
      const other = `households/${randomUUID()}/documents/${randomUUID()}`;
      await store.inner.put(other, (await store.inner.get(key))!.body, 'application/pdf');
      await expect(store.get(other)).rejects.toThrow();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('rotating the key re-encrypts rows and files, and every income and document opens with the new key alone', async () => {
    // An application written before declared incomes were sealed: its plain figure is sealed by the rotation.
    const household = await stack.db.selectFrom('households').select(['id', 'head_user_id']).where('head_user_id', '=', resident.userId).executeTakeFirstOrThrow();
    const opportunity = await stack.db.selectFrom('opportunities').select(['id', 'organization_id']).executeTakeFirstOrThrow();
    const legacyId = randomUUID();
    await stack.db
      .insertInto('applications')
      .values({ id: legacyId, workflow_id: `test-${legacyId}`, household_id: household.id, opportunity_id: opportunity.id, organization_id: opportunity.organization_id, applicant_user_id: resident.userId, status: 'in_review', current_step: 'documentation_review', pending_tasks: '[]', household_size: 2, household_income: 47_123.45, applied_at: new Date(), state_updated_at: new Date(), state_version: 1 })
      .execute();
    const oldKey = stack.config.DATA_ENCRYPTION_KEY;
    const newKey = randomBytes(32).toString('base64');
    const ring = createKeyRing(newKey, [oldKey]);
    useDataKeys(ring);
    const inner = (stack.blobs as EncryptingBlobStore).inner;
    const rotated = new EncryptingBlobStore(inner, ring);

    const report = await rotateAll(stack.db, rotated);
    expect(report.incomes).toBeGreaterThanOrEqual(2);
    expect(report.identifiers).toBeGreaterThanOrEqual(1);
    expect(report.assets).toBeGreaterThanOrEqual(1);
    expect(report.declaredIncomes).toBe(1);
    expect(report.files).toBe(report.filesChecked);
    expect(report.files).toBeGreaterThanOrEqual(3); // the upload and the two seeded pay stubs
    // Twice changes nothing.
    expect(await rotateAll(stack.db, rotated)).toMatchObject({ incomes: 0, tenancies: 0, identifiers: 0, files: 0, assets: 0, declaredIncomes: 0 });

    const newOnly = createKeyRing(newKey);
    const cipher = createFieldCipher(newOnly);
    const rows = await stack.db.selectFrom('household_incomes').select(['id', 'amount', 'amount_encrypted', 'details']).where('id', 'in', incomeIds).execute();
    expect(rows.map((r) => Number(cipher.decrypt(r.amount_encrypted!))).sort()).toEqual([2741.19, 3917.43]);
    for (const r of rows) {
      expect(r.amount).toBeNull();
      expect(JSON.parse(cipher.decrypt((r.details as unknown as { $sealed: string }).$sealed))).toHaveProperty('memberId');
    }
    const assetRow = await stack.db.selectFrom('household_assets').select('details').where('kind', '=', 'BankAccounts').executeTakeFirstOrThrow();
    expect(JSON.parse(cipher.decrypt((assetRow.details as unknown as { $sealed: string }).$sealed))).toMatchObject({ institution: 'Brindle Credit Union', balance: 6120.44 });
    const declared = await stack.db.selectFrom('applications').select(['household_income', 'household_income_encrypted']).where('household_income_encrypted', 'is not', null).execute();
    expect(declared.length).toBeGreaterThan(0);
    for (const r of declared) {
      expect(r.household_income).toBeNull();
      expect(Number(cipher.decrypt(r.household_income_encrypted!))).toBeGreaterThan(0);
    }
    const ssn = (await stack.db.selectFrom('household_members').select('ssn_encrypted').where('ssn_last4', '=', '9999').executeTakeFirstOrThrow()).ssn_encrypted!;
    expect(cipher.decrypt(ssn)).toBe('219099999');

    const newOnlyStore = new EncryptingBlobStore(inner, newOnly);
    for await (const key of newOnlyStore.list('')) {
      expect(sealedBlobKeyId((await inner.get(key))!.body)).toBe(newOnly.currentId);
      expect(await newOnlyStore.get(key)).not.toBeNull();
    }
    const key = (await stack.db.selectFrom('household_documents').select('blob_key').where('id', '=', documentId).executeTakeFirstOrThrow()).blob_key!;
    expect((await newOnlyStore.get(key))!.body.includes(marker)).toBe(true);
    // The API reads the rotated incomes (its readers use the process's key ring).
    expect(((await call('GET', '/api/HouseholdIncome')).json().data as { amount: number }[]).map((i) => i.amount)).toEqual([3917.43, 2741.19]);
  });
});
