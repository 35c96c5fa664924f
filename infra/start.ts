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
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createBlobStore } from './blobs';
import { loadConfig, runMain } from './config';
import { keyRingFromConfig } from './crypto';
import { useDataKeys } from './data-keys';
import { openPartLog, routeLines } from './console-lines';
import { assertDatabaseReachable, createDb } from './db/database';
import { migrateToLatest } from './db/migrate';
import { startEmbeddedPostgres, startTemporalDevServer } from './embedded';
import { readLocalSecrets } from './local-secrets';
import { seedDemoData } from './seed';
import { findTemporalCli } from './tools/temporal-cli';

const DATA_DIR = resolve(process.env.DATA_DIR ?? '.data');
const say = (line: string) => process.stdout.write(`[portal] ${line}\n`);

/** One running part: its process id, how it ends, and how to stop it. */
interface Running {
  pid: number | undefined;
  exited: Promise<string>;
  stop(): Promise<void>;
}

const BACKOFF = { firstMs: 1000, maxMs: 30_000, stableAfterMs: 60_000 } as const;

/** The wait before the n-th restart in a row (n from 1). */
const restartDelay = (n: number) => Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** (n - 1));

let stopping = false;
const parts: Supervisor[] = [];

/** Keeps one part running: starts it, and starts it again with back-off whenever it ends. */
class Supervisor {
  private current: Running | undefined;
  private restarts = 0;
  private wake: (() => void) | undefined;

  constructor(
    readonly name: string,
    private readonly launch: () => Promise<Running>,
  ) {}

  /** The first start must succeed: a part that cannot start at all is a configuration problem. */
  async start(): Promise<void> {
    this.current = await this.launch();
    say(`${this.name} started (pid ${this.current.pid})`);
    void this.watch(this.current, Date.now());
  }

  private async watch(running: Running, startedAt: number): Promise<void> {
    const how = await running.exited;
    if (stopping) return;
    if (Date.now() - startedAt >= BACKOFF.stableAfterMs) this.restarts = 0;
    for (;;) {
      const delay = restartDelay(++this.restarts);
      say(`${this.name} exited (${how}); restarting in ${Math.round(delay / 1000)}s (restart ${this.restarts})`);
      await new Promise<void>((done) => {
        const timer = setTimeout(done, delay);
        this.wake = () => {
          clearTimeout(timer);
          done();
        };
      });
      this.wake = undefined;
      if (stopping) return;
      try {
        this.current = await this.launch();
      } catch (error) {
        if (stopping) return;
        say(`${this.name} could not start: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
        continue;
      }
      say(`${this.name} restarted (pid ${this.current.pid})`);
      void this.watch(this.current, Date.now());
      return;
    }
  }

  async stop(): Promise<void> {
    this.wake?.();
    await this.current?.stop().catch(() => undefined);
  }
}

function nodeProcess(name: string, script: string, env: NodeJS.ProcessEnv, nodeFlags: string[] = []): () => Promise<Running> {
  return async () => {
    // Own process group: Ctrl-C reaches only this supervisor, which stops children in order.
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // Request logs and the rest go to .data/logs/<name>.log; warnings and errors also to the terminal.
    const log = await openPartLog(join(DATA_DIR, 'logs'), name);
    routeLines(name, child.stdout!, log, (line) => process.stdout.write(`${line}\n`));
    routeLines(name, child.stderr!, log, (line) => process.stderr.write(`${line}\n`));
    const exited = exitOf(child).finally(() => log.end());
    return { pid: child.pid, exited, stop: () => stopChild(child) };
  };
}

function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((done) => child.once('exit', (code, signal) => done(signal ?? `code ${code}`)));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

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

async function stopAll(code: number): Promise<never> {
  if (stopping) return new Promise<never>(() => {});
  stopping = true;
  say('stopping...');
  // Reverse order of start: API, worker, Temporal, PostgreSQL.
  for (const part of [...parts].reverse()) await part.stop();
  say('stopped');
  process.exit(code);
}

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
    const postgres = new Supervisor('postgres', async () => {
      const handle = await startEmbeddedPostgres(join(DATA_DIR, 'postgres'), port);
      await handle.createDatabase('portal');
      url = handle.url('portal');
      return { pid: handle.process.pid, exited: exitOf(handle.process), stop: () => handle.stop() };
    });
    parts.push(postgres);
    await postgres.start();
    env.DATABASE_URL = url;
  }
  let uiPort = Number(env.TEMPORAL_UI_PORT ?? 8233);
  const embeddedTemporal = !env.TEMPORAL_ADDRESS;
  if (embeddedTemporal) {
    say(`starting the Temporal dev server (SQLite, Web UI on ${uiPort})...`);
    const cli = await findTemporalCli();
    const port = Number(env.TEMPORAL_PORT ?? 7233);
    const temporal = new Supervisor('temporal', async () => {
      const handle = await startTemporalDevServer(cli, { dbFile: join(DATA_DIR, 'temporal.sqlite'), port, uiPort, detached: true });
      return { pid: handle.process.pid, exited: exitOf(handle.process), stop: () => handle.stop() };
    });
    parts.push(temporal);
    await temporal.start();
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
    const part = new Supervisor(name, nodeProcess(name, script, env, flags[name]));
    parts.push(part);
    await part.start();
  }
  say(`portal on http://localhost:${config.PORT}  (Temporal Web UI: http://localhost:${uiPort})  Ctrl-C stops`);
  say(`request logs: ${join(DATA_DIR, 'logs')}/  (the terminal shows warnings and errors)`);
}, () => stopAll(1));
