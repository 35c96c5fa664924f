import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-store';
import { S3BlobStore } from './s3-store';

export type { BlobStore, BlobObject } from './blob-store';
export { LocalBlobStore, S3BlobStore };

export function createBlobStore(config: Config): BlobStore {
  if (config.BLOB_DRIVER === 's3') {
    return new S3BlobStore({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalBlobStore(config.BLOB_DIR);
}
