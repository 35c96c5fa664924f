import { isSealedBlob, openBlob, sealBlob, sealedBlobKeyId, type KeyRing } from '../crypto';
import type { BlobObject, BlobStore } from './blob-store';

export type RotationOutcome = 'current' | 'resealed' | 'missing';

/**
 * Envelope encryption in front of any blob store (infra/crypto.ts `sealBlob`): callers put and get
 * plain bytes, the folder or bucket only ever receives sealed ones. Objects written before this
 * layer existed are read as they are, and sealed by `reseal` (key rotation).
 */
export class EncryptingBlobStore implements BlobStore {
  constructor(
    readonly inner: BlobStore,
    private readonly keys: KeyRing,
  ) {}

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.inner.put(key, sealBlob(this.keys, key, body), contentType);
  }

  async get(key: string): Promise<BlobObject | null> {
    const object = await this.inner.get(key);
    if (!object) return null;
    if (!isSealedBlob(object.body)) return object;
    return { body: openBlob(this.keys, key, object.body), contentType: object.contentType };
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  list(prefix = ''): AsyncIterable<string> {
    return this.inner.list(prefix);
  }

  /** Re-encrypts one object under the current key when it is plain or sealed by an older key. */
  async reseal(key: string): Promise<RotationOutcome> {
    const object = await this.inner.get(key);
    if (!object) return 'missing';
    if (sealedBlobKeyId(object.body) === this.keys.currentId) return 'current';
    const plain = isSealedBlob(object.body) ? openBlob(this.keys, key, object.body) : object.body;
    await this.put(key, plain, object.contentType);
    return 'resealed';
  }
}
