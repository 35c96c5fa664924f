import type { Config } from '../config';
import { keyRingFromConfig } from '../crypto';
import { EncryptingBlobStore } from './encrypting-store';
import { LocalBlobStore } from './local-store';
import { S3BlobStore } from './s3-store';

export type { BlobStore, BlobObject } from './blob-store';
export { EncryptingBlobStore, LocalBlobStore, S3BlobStore };

/** The configured store without the encryption layer (key rotation reads it; callers never should). */
export function createRawBlobStore(config: Config): LocalBlobStore | S3BlobStore {
  if (config.BLOB_DRIVER === 's3') {
    return new S3BlobStore({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      sse: config.S3_SSE,
      sseKmsKeyId: config.S3_SSE_KMS_KEY_ID,
    });
  }
  return new LocalBlobStore(config.BLOB_DIR);
}

/** The blob store every caller uses: documents and letters sealed with the data key (envelope encryption). */
export function createBlobStore(config: Config): EncryptingBlobStore {
  return new EncryptingBlobStore(createRawBlobStore(config), keyRingFromConfig(config));
}
