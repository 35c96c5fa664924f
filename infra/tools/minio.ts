/** MinIO, the S3-compatible server the tests and `npm run start:cluster` keep documents and letters in. */
import { findOrBuildGoBinary } from './go-binary';

/**
 * MinIO module version. MinIO's release tags are not semver, so `@latest` resolves to a pseudo-version
 * of the default branch; this is the one `@latest` resolved to when this was written, pinned so every
 * machine builds the same (known good) source.
 */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';
const MINIO_PACKAGE = 'github.com/minio/minio';

/** Path to a `minio` server binary, building the pinned MinIO version on first use. */
export async function findMinio(): Promise<string> {
  return findOrBuildGoBinary({
    binary: 'minio',
    envVar: 'MINIO_PATH',
    label: `MinIO ${MINIO_VERSION}`,
    module: `${MINIO_PACKAGE}@${MINIO_VERSION}`,
  });
}
