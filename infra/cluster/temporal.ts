/**
 * The Temporal server of the cluster: its two PostgreSQL schemas created and upgraded with the
 * server's own sql tool (idempotent: `setup-schema -v 0.0` keeps a newer version, `update-schema`
 * applies only what is missing), then `temporal-server start` on infra/production/temporal-server.yaml.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { openPartLog } from '../console-lines';
import { waitForPort } from '../embedded';
import { exitOf, stopChild, type Running } from '../supervisor';
import { findTemporalSchemaDir } from '../tools/temporal-server';
import type { ClusterPorts } from './ports';

export interface TemporalDatabase {
  host: string;
  port: number;
  user: string;
  password: string;
}

function runTool(tool: string, args: string[], db: TemporalDatabase, logFile: Promise<NodeJS.WritableStream>): Promise<void> {
  return new Promise((done, fail) => {
    // The password goes by environment, never on a command line another user can read.
    const child = spawn(tool, ['--plugin', 'postgres12', '--ep', db.host, '-p', String(db.port), '-u', db.user, ...args], {
      env: { ...process.env, SQL_PASSWORD: db.password },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => (output += chunk.toString());
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', fail);
    child.once('exit', (code) => {
      void logFile.then((log) => log.write(output));
      if (code === 0) done();
      else fail(new Error(`temporal-sql-tool ${args.slice(2).join(' ')} failed: ${output.trim().split('\n').pop()}`));
    });
  });
}

/** Creates or upgrades the `temporal` and `temporal_visibility` schemas (the databases exist). */
export async function applyTemporalSchemas(tool: string, db: TemporalDatabase, logDir: string): Promise<void> {
  const schemaDir = await findTemporalSchemaDir();
  const log = openPartLog(logDir, 'temporal-schema');
  try {
    for (const [database, dir] of [['temporal', 'temporal'], ['temporal_visibility', 'visibility']] as const) {
      await runTool(tool, ['--db', database, 'setup-schema', '-v', '0.0'], db, log);
      await runTool(tool, ['--db', database, 'update-schema', '-d', join(schemaDir, dir, 'versioned')], db, log);
    }
  } finally {
    (await log).end();
  }
}

/** Starts the server; ready when its frontend answers a health check. */
export function temporalServerProcess(server: string, options: { root: string; ports: ClusterPorts; db: TemporalDatabase; logDir: string }): () => Promise<Running> {
  return async () => {
    const { ports, db } = options;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TEMPORAL_DB_HOST: db.host,
      TEMPORAL_DB_PORT: String(db.port),
      TEMPORAL_DB_USER: db.user,
      TEMPORAL_DB_PASSWORD: db.password,
      TEMPORAL_DB_TLS: 'false', // loopback
      TEMPORAL_BIND_IP: '127.0.0.1',
      TEMPORAL_PORT: String(ports.temporal),
      TEMPORAL_MEMBERSHIP_PORT: String(ports.temporalMembership),
      TEMPORAL_METRICS_PORT: String(ports.temporalMetrics),
    };
    const args = ['--root', options.root, '--config', 'infra/production', '--env', 'temporal-server', '--allow-no-auth', 'start'];
    const child = spawn(server, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const log = await openPartLog(options.logDir, 'temporal');
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const exited = exitOf(child).finally(() => log.end());
    const running: Running = { pid: child.pid, exited, stop: () => stopChild(child) };
    await Promise.race([
      waitUntilServing(`127.0.0.1:${ports.temporal}`),
      exited.then((how) => {
        throw new Error(`the Temporal server exited during start-up (${how}); see ${join(options.logDir, 'temporal.log')}`);
      }),
    ]);
    return running;
  };
}

/** The frontend's port opens before the history shards are owned; a health check answers only once it serves. */
async function waitUntilServing(address: string, timeoutMs = 300_000): Promise<void> {
  const [host, port] = address.split(':');
  await waitForPort(Number(port), host, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: '5 seconds' });
      const health = await connection.healthService.check({});
      if (health.status === 1) return; // SERVING
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`the Temporal server at ${address} did not serve within ${timeoutMs / 1000}s: ${String(error)}`, { cause: error });
    } finally {
      await connection?.close().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`the Temporal server at ${address} did not serve within ${timeoutMs / 1000}s`);
    await new Promise((done) => setTimeout(done, 500));
  }
}
