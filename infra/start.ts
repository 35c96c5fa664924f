/**
 * `npm start`: the whole product on one machine with no external services. Starts what is not
 * configured (PostgreSQL when DATABASE_URL is unset, the Temporal dev server when TEMPORAL_ADDRESS is
 * unset), applies migrations, seeds the demo data once, then runs the worker and the API as separate
 * processes, exactly as they run in production.
 *
 * It is a supervisor: a worker, API, Temporal dev server or PostgreSQL that dies is started again
 * with back-off (1 s, doubling to 30 s; back to 1 s after a minute of running), each time said on
 * the console. Only Ctrl-C (SIGINT/SIGTERM) stops everything, in order.
 *
 * Before the worker starts, the open runs of the embedded Temporal are replayed through this
 * checkout's workflow code (`demoRunsCheck`): data kept from an older version may hold runs that
 * this code cannot continue, and the terminal then says so in one line, with how to start afresh.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createBlobStore } from './blobs';
import { loadConfig, runMain } from './config';
import { keyRingFromConfig } from './crypto';
import { useDataKeys } from './data-keys';
import { assertDatabaseReachable, createDb } from './db/database';
import { migrateToLatest } from './db/migrate';
import { startEmbeddedPostgres, startTemporalDevServer } from './embedded';
import { readLocalSecrets } from './local-secrets';
import { seedDemoData } from './seed';
import { exitOf, nodeProcess, Parts } from './supervisor';
import { findTemporalCli } from './tools/temporal-cli';

const DATA_DIR = resolve(process.env.DATA_DIR ?? '.data');
const say = (line: string) => process.stdout.write(`[portal] ${line}\n`);
const parts = new Parts(say);

/**
 * Replays the open workflow runs of the embedded Temporal through this code with the deploy gate's
 * command (worker/replay-check.ts, run as its own process as the worker is). A run it cannot replay
 * was started by code this version no longer has (workflow changes are not carried across releases
 * for the demo's data): one line says so and how to start afresh; the start goes on either way. The
 * report is kept in `.data/logs/replay-check.log`.
 */
async function demoRunsCheck(env: NodeJS.ProcessEnv, namespace: string): Promise<void> {
  const logFile = join(DATA_DIR, 'logs', 'replay-check.log');
  const args = ['--import', 'tsx', 'worker/replay-check.ts', '--address', env.TEMPORAL_ADDRESS!, '--namespace', namespace, '--max-located', '0'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let report = '';
  child.stdout!.on('data', (chunk: Buffer) => (report += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (report += chunk.toString()));
  const how = await exitOf(child);
  await mkdir(dirname(logFile), { recursive: true });
  await writeFile(logFile, report, { mode: 0o600 });
  if (how === 'code 0') return;
  const stale = /RESULT: (\d+) of \d+ workflow\(s\) do NOT replay/.exec(report);
  if (how === 'code 1' && stale) {
    say(
      `the data in ${DATA_DIR} holds ${stale[1]} workflow run(s) started by an older version of the portal, which this version cannot continue ` +
        `(details: ${logFile}); to start afresh with new demo data: Ctrl-C, delete ${DATA_DIR}, then npm start again`,
    );
    return;
  }
  say(`could not check the open workflow runs against this version (${how}; details: ${logFile})`);
}

/** Reverse order of start: the APIs, the workers, Temporal, then the stores. */
const stopAll = (code: number): Promise<never> => parts.stopAndExit(code);

await runMain('start', async () => {
  await mkdir(DATA_DIR, { recursive: true, mode: 0o700 });
  // `on`, not `once`: Ctrl-C can arrive twice (from the terminal and relayed by npm); a second one
  // must not kill this process half-way through stopping the services.
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const env: NodeJS.ProcessEnv = { ...process.env };
  const embeddedDb = !env.DATABASE_URL;
  if (embeddedDb) {
    say('starting PostgreSQL (embedded)...');
    const port = Number(env.PG_PORT ?? 5433);
    let url = '';
    await parts.start('postgres', async () => {
      const handle = await startEmbeddedPostgres(join(DATA_DIR, 'postgres'), port);
      await handle.createDatabase('portal');
      url = handle.url('portal');
      return { pid: handle.process.pid, exited: exitOf(handle.process), stop: () => handle.stop() };
    });
    env.DATABASE_URL = url;
  }
  let uiPort = Number(env.TEMPORAL_UI_PORT ?? 8233);
  const embeddedTemporal = !env.TEMPORAL_ADDRESS;
  if (embeddedTemporal) {
    say(`starting the Temporal dev server (SQLite, Web UI on ${uiPort})...`);
    const cli = await findTemporalCli();
    const port = Number(env.TEMPORAL_PORT ?? 7233);
    await parts.start('temporal', async () => {
      const handle = await startTemporalDevServer(cli, { dbFile: join(DATA_DIR, 'temporal.sqlite'), port, uiPort, detached: true });
      return { pid: handle.process.pid, exited: exitOf(handle.process), stop: () => handle.stop() };
    });
    env.TEMPORAL_ADDRESS = `127.0.0.1:${port}`;
  } else {
    uiPort = 8233;
  }
  if (!env.JWT_SECRET && !env.JWT_PRIVATE_KEY) env.JWT_SECRET = (await readLocalSecrets(DATA_DIR)).JWT_SECRET;
  if (!env.DATA_ENCRYPTION_KEY) {
    const secrets = await readLocalSecrets(DATA_DIR);
    env.DATA_ENCRYPTION_KEY = secrets.DATA_ENCRYPTION_KEY;
    env.DATA_ENCRYPTION_KEYS_PREVIOUS ??= secrets.DATA_ENCRYPTION_KEYS_PREVIOUS;
  }
  env.BLOB_DIR ??= join(DATA_DIR, 'blobs');

  // Validate now, so a bad value stops start-up with one line before anything else runs.
  const config = loadConfig(env);
  const db = createDb(config);
  await assertDatabaseReachable(db, config.DATABASE_URL);
  await migrateToLatest(db);
  if (embeddedDb) {
    useDataKeys(keyRingFromConfig(config));
    if (await seedDemoData(db, new Date(), { blobs: createBlobStore(config), lottery: true })) say('seeded demo data (accounts in infra/demo-accounts.json)');
  }
  await db.destroy();
  if (embeddedTemporal) await demoRunsCheck(env, config.TEMPORAL_NAMESPACE);

  // The worker's heap as configured: its sticky cache is sized from it (worker/sizing.ts).
  const flags = { worker: [`--max-old-space-size=${config.WORKER_HEAP_MB}`], api: [] };
  for (const [name, script] of [['worker', 'worker/main.ts'], ['api', 'api/main.ts']] as const) {
    await parts.start(name, nodeProcess(name, script, env, { logDir: join(DATA_DIR, 'logs'), nodeFlags: flags[name] }));
  }
  say(`portal on http://localhost:${config.PORT}  (Temporal Web UI: http://localhost:${uiPort})  Ctrl-C stops`);
  say(`request logs: ${join(DATA_DIR, 'logs')}/  (the terminal shows warnings and errors)`);
  // The embedded start sends no text to a phone: each is a file to read (SMS_PROVIDER=twilio sends them).
  if (config.SMS_PROVIDER === 'file') say(`text messages: not sent to phones; each is written to ${env.SMS_DIR ?? join(env.DATA_DIR ?? DATA_DIR, 'sms')}/ (SMS_PROVIDER=file)`);
  else say(`text messages: sent through the SMS provider at ${config.TWILIO_API_URL}`);
}, () => stopAll(1));
