/**
 * Documents and generated letters. Keys are opaque paths chosen by the caller
 * (`households/{id}/documents/{documentId}`); objects are private and only ever served through
 * authorised API routes. `createBlobStore` wraps every store in `EncryptingBlobStore`, so what the
 * folder or the bucket holds is always ciphertext.
 */
export interface BlobObject {
  body: Buffer;
  contentType: string;
}

export interface BlobStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when no object has this key. */
  get(key: string): Promise<BlobObject | null>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be reached (used by /readyz). */
  ping(): Promise<void>;
  /** Every key under a prefix ('' for all), for key rotation. */
  list(prefix?: string): AsyncIterable<string>;
}

/** Keys are relative paths of safe segments; anything else is a programming error. */
export function assertValidKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) || key.includes('..')) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
}
