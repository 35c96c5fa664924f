/**
 * `npm start`: the whole product on one machine with no external services. Starts what is not
 * configured (PostgreSQL when DATABASE_URL is unset, the Temporal dev server when TEMPORAL_ADDRESS is
 * unset), applies migrations, seeds the demo data once, then runs the worker and the API as separate
 * processes, exactly as they run in production. Ctrl-C stops everything, in order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig, runMain } from './config';
import { assertDatabaseReachable, createDb } from './db/database';
import { migrateToLatest } from './db/migrate';
import { startEmbeddedPostgres, startTemporalDevServer, type DevServerHandle, type EmbeddedPostgresHandle } from './embedded';
import { seedDemoData } from './seed';
import { findTemporalCli } from './tools';

const DATA_DIR = resolve(process.env.DATA_DIR ?? '.data');
const say = (line: string) => process.stdout.write(`[portal] ${line}\n`);

/** Secrets of the embedded default, made once and kept with the data so sessions and data survive restarts. */
async function localSecrets(): Promise<{ JWT_SECRET: string; DATA_ENCRYPTION_KEY: string }> {
  const file = join(DATA_DIR, 'secrets.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8'));
  const secrets = { JWT_SECRET: randomBytes(48).toString('base64'), DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

function startChild(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  // Own process group: Ctrl-C reaches only this orchestrator, which stops children in order.
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env, stdio: 'inherit', detached: true });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping everything`);
      void stopAll(1);
    }
  });
  return child;
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

let stopping = false;
let api: ChildProcess | undefined;
let worker: ChildProcess | undefined;
let temporal: DevServerHandle | undefined;
let postgres: EmbeddedPostgresHandle | undefined;

async function stopAll(code: number): Promise<never> {
  if (stopping && code === 0) return new Promise<never>(() => {});
  stopping = true;
  say('stopping...');
  await stopChild(api);
  await stopChild(worker);
  await temporal?.stop();
  await postgres?.stop().catch(() => undefined);
  say('stopped');
  process.exit(code);
}

await runMain('start', async () => {
  await mkdir(DATA_DIR, { recursive: true });
  // `on`, not `once`: Ctrl-C can arrive twice (from the terminal and relayed by npm); a second one
  // must not kill this process half-way through stopping the services.
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const env: NodeJS.ProcessEnv = { ...process.env };
  const embeddedDb = !env.DATABASE_URL;
  if (embeddedDb) {
    say('starting PostgreSQL (embedded)...');
    postgres = await startEmbeddedPostgres(join(DATA_DIR, 'postgres'), Number(env.PG_PORT ?? 5433));
    await postgres.createDatabase('portal');
    env.DATABASE_URL = postgres.url('portal');
  }
  if (!env.TEMPORAL_ADDRESS) {
    const uiPort = Number(env.TEMPORAL_UI_PORT ?? 8233);
    say(`starting the Temporal dev server (SQLite, Web UI on ${uiPort})...`);
    temporal = await startTemporalDevServer(await findTemporalCli(), {
      dbFile: join(DATA_DIR, 'temporal.sqlite'),
      port: Number(env.TEMPORAL_PORT ?? 7233),
      uiPort,
      detached: true,
    });
    env.TEMPORAL_ADDRESS = temporal.address;
  }
  if (!env.JWT_SECRET && !env.JWT_PRIVATE_KEY) env.JWT_SECRET = (await localSecrets()).JWT_SECRET;
  if (!env.DATA_ENCRYPTION_KEY) env.DATA_ENCRYPTION_KEY = (await localSecrets()).DATA_ENCRYPTION_KEY;
  env.BLOB_DIR ??= join(DATA_DIR, 'blobs');

  // Validate now, so a bad value stops start-up with one line before anything else runs.
  const config = loadConfig(env);
  const db = createDb(config);
  await assertDatabaseReachable(db, config.DATABASE_URL);
  await migrateToLatest(db);
  if (embeddedDb && (await seedDemoData(db))) say('seeded demo data (accounts in infra/demo-accounts.json)');
  await db.destroy();

  worker = startChild('worker', 'worker/main.ts', env);
  api = startChild('api', 'api/main.ts', env);
  say(`portal on http://localhost:${config.PORT}  (Temporal Web UI: http://localhost:${temporal?.uiPort ?? 8233})  Ctrl-C stops`);
}, () => stopAll(1));
