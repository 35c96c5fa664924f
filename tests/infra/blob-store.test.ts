import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { LocalBlobStore, S3BlobStore, type BlobStore } from '../../infra/blobs';

const s3 = inject('s3');
const s3Store = new S3BlobStore({ bucket: `blobs-${randomUUID().slice(0, 8)}`, forcePathStyle: true, ...s3 });
const localRoot = await mkdtemp(join(tmpdir(), 'portal-blobs-'));
const stores: [string, BlobStore, () => Promise<void>][] = [
  ['local folder', new LocalBlobStore(localRoot), async () => {}],
  ['S3 (MinIO)', s3Store, () => s3Store.ensureBucket()],
];

afterAll(async () => {
  await rm(localRoot, { recursive: true, force: true });
  s3Store.destroy();
});

describe.each(stores)('blob store: %s', (_name, store, prepare) => {
  it('stores, reads back and deletes an object with its content type', async () => {
    await prepare();
    const key = `households/${randomUUID()}/documents/pay-stub.pdf`;
    const body = Buffer.from('%PDF-1.7 pay stub bytes \u0000\u00ff');
    await store.put(key, body, 'application/pdf');
    const got = await store.get(key);
    expect(got?.contentType).toBe('application/pdf');
    expect(got?.body.equals(body)).toBe(true);

    await store.put(key, Buffer.from('replaced'), 'text/plain');
    expect((await store.get(key))?.body.toString()).toBe('replaced');

    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await store.delete(key); // deleting a missing key is not an error
  });

  it('answers null for a key never written and refuses unsafe keys', async () => {
    await prepare();
    expect(await store.get(`missing/${randomUUID()}`)).toBeNull();
    await expect(store.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid blob key/);
    await expect(store.put('/absolute', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid blob key/);
  });

  it('answers a ping when reachable', async () => {
    await prepare();
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

it('an S3 store whose server is unreachable fails its ping', async () => {
  const dead = new S3BlobStore({ ...s3, endpoint: 'http://127.0.0.1:1', bucket: 'nowhere', forcePathStyle: true });
  await expect(dead.ping()).rejects.toBeTruthy();
  dead.destroy();
});
