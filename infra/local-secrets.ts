import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Secrets of the embedded default, made once and kept with the data (0600) so sessions and data survive restarts. */
export interface LocalSecrets {
  JWT_SECRET: string;
  DATA_ENCRYPTION_KEY: string;
  /** Keys before a `npm run keys:rotate -- --new-key`, comma separated: they only decrypt. */
  DATA_ENCRYPTION_KEYS_PREVIOUS: string;
}

export async function readLocalSecrets(dataDir: string): Promise<LocalSecrets> {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(await readFile(file, 'utf8')) as Partial<LocalSecrets>;
    return { JWT_SECRET: stored.JWT_SECRET!, DATA_ENCRYPTION_KEY: stored.DATA_ENCRYPTION_KEY!, DATA_ENCRYPTION_KEYS_PREVIOUS: stored.DATA_ENCRYPTION_KEYS_PREVIOUS ?? '' };
  }
  const secrets = { JWT_SECRET: randomBytes(48).toString('base64'), DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), DATA_ENCRYPTION_KEYS_PREVIOUS: '' };
  await writeLocalSecrets(dataDir, secrets);
  return secrets;
}

export async function writeLocalSecrets(dataDir: string, secrets: LocalSecrets): Promise<void> {
  const file = join(dataDir, 'secrets.json');
  // Written beside and renamed, so a crash never leaves half a key file.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  await rename(tmp, file);
}
