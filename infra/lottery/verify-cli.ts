/**
 * `npm run lottery:verify -- <opportunityId>`: recomputes a published lottery draw and says whether
 * it matches (exit 0) or not (exit 1, with what differs).
 *
 * With your own services it reads DATABASE_URL (and PG_SSL, PG_STATEMENT_TIMEOUT_MS) as the API
 * does. On the embedded default (no DATABASE_URL) it uses the PostgreSQL of a running `npm start`,
 * or starts the one in `.data` (DATA_DIR) for the time of the check. It reads only the published
 * values and the ranked list: no key is needed.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { loadConfig, runMain } from '../config';
import { assertDatabaseReachable, createDb } from '../db/database';
import { embeddedPostgresUrl, isPortOpen, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../embedded';
import { LotteryNotDrawn, verifyLottery } from './verify';
import { formatVerification } from './verify-report';

let postgres: EmbeddedPostgresHandle | undefined;

await runMain('lottery:verify', async () => {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const opportunityId = z.string().uuid().safeParse(args[0]);
  if (args.length !== 1 || !opportunityId.success) throw new Error('usage: npm run lottery:verify -- <opportunity id (a UUID)>');

  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!env.DATABASE_URL) {
    const port = Number(env.PG_PORT ?? 5433);
    if (await isPortOpen(port)) {
      env.DATABASE_URL = embeddedPostgresUrl(port, 'portal');
    } else {
      const dataDir = resolve(env.DATA_DIR ?? '.data');
      if (!existsSync(join(dataDir, 'postgres'))) throw new Error(`no DATABASE_URL and no embedded data in ${dataDir}`);
      postgres = await startEmbeddedPostgres(join(dataDir, 'postgres'), port);
      env.DATABASE_URL = postgres.url('portal');
    }
  }
  // Only the database settings are used; the others are required by the shared schema, not here.
  const config = loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7233', JWT_SECRET: 'unused-by-lottery-verify-'.padEnd(32, '-'), DATA_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'), ...env });
  const db = createDb(config);
  try {
    await assertDatabaseReachable(db, config.DATABASE_URL);
    const verification = await verifyLottery(db, opportunityId.data);
    process.stdout.write(`${formatVerification(verification)}\n`);
    process.exitCode = verification.matches ? 0 : 1;
  } catch (error) {
    if (error instanceof LotteryNotDrawn) throw new Error(`opportunity ${opportunityId.data}: ${error.message}`, { cause: error });
    throw error;
  } finally {
    await db.destroy();
    await postgres?.stop();
  }
}, async () => postgres?.stop());
