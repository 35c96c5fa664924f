/**
 * `npm run keys:rotate`: re-encrypts every income row, asset, declared income, identifier and file still plain or under an
 * older key with the current DATA_ENCRYPTION_KEY (older keys in DATA_ENCRYPTION_KEYS_PREVIOUS).
 *
 * With your own services: deploy every API and worker replica with the new key as
 * DATA_ENCRYPTION_KEY and the old one in DATA_ENCRYPTION_KEYS_PREVIOUS, then run this once with the
 * same variables. Keep the old key listed afterwards: Temporal histories written before stay
 * encrypted under it.
 *
 * On the embedded default (no DATABASE_URL), stop `npm start` first; `npm run keys:rotate -- --new-key`
 * makes a new key in `.data/secrets.json` (the old one becomes a previous key) and re-encrypts the
 * embedded database and blob folder under it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createBlobStore } from './blobs';
import { loadConfig, runMain } from './config';
import { keyRingFromConfig } from './crypto';
import { useDataKeys } from './data-keys';
import { assertDatabaseReachable, createDb } from './db/database';
import { migrateToLatest } from './db/migrate';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded';
import { rotateAll } from './key-rotation';
import { readLocalSecrets, writeLocalSecrets } from './local-secrets';

const say = (line: string) => process.stdout.write(`[keys] ${line}\n`);
let postgres: EmbeddedPostgresHandle | undefined;

await runMain('keys:rotate', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const embedded = !env.DATABASE_URL;
  if (embedded) {
    if (!existsSync(join(dataDir, 'secrets.json'))) throw new Error(`no DATABASE_URL and no embedded data in ${dataDir}`);
    const secrets = await readLocalSecrets(dataDir);
    if (process.argv.includes('--new-key')) {
      const previous = [secrets.DATA_ENCRYPTION_KEY, ...secrets.DATA_ENCRYPTION_KEYS_PREVIOUS.split(',').filter(Boolean)];
      secrets.DATA_ENCRYPTION_KEY = randomBytes(32).toString('base64');
      secrets.DATA_ENCRYPTION_KEYS_PREVIOUS = [...new Set(previous)].join(',');
      await writeLocalSecrets(dataDir, secrets);
      say('made a new data key; the old one stays as a previous key in .data/secrets.json');
    }
    Object.assign(env, secrets);
    env.BLOB_DIR ??= join(dataDir, 'blobs');
    postgres = await startEmbeddedPostgres(join(dataDir, 'postgres'), Number(env.PG_PORT ?? 5433));
    env.DATABASE_URL = postgres.url('portal');
    env.TEMPORAL_ADDRESS ??= '127.0.0.1:7233'; // not contacted; the configuration needs a value
  } else if (process.argv.includes('--new-key')) {
    throw new Error('--new-key is for the embedded default; with your own services set DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_KEYS_PREVIOUS');
  }

  const config = loadConfig(env);
  const ring = keyRingFromConfig(config);
  useDataKeys(ring);
  const db = createDb(config);
  const blobs = createBlobStore(config);
  try {
    await assertDatabaseReachable(db, config.DATABASE_URL);
    await migrateToLatest(db);
    say(`re-encrypting under key ${ring.currentId} (${ring.byId.size - 1} previous key(s) known)...`);
    const report = await rotateAll(db, blobs);
    say(`income entries ${report.incomes}, declared incomes ${report.tenancies}, certification records ${report.certifications}, members' identifiers ${report.identifiers}, chat messages ${report.chatMessages}, support tickets ${report.tickets}, document readings ${report.extractions}, translations ${report.translations}, intake conversations ${report.intakeConversations}, assets ${report.assets}, declared incomes on applications ${report.declaredIncomes}, files ${report.files} of ${report.filesChecked}: done`);
  } finally {
    await db.destroy();
    await postgres?.stop();
  }
}, async () => postgres?.stop());
