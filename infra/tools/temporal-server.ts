/**
 * The Temporal server, its SQL schema tool and its Web UI server, at the versions the Temporal CLI
 * embeds, for `npm run start:cluster`: the production server (not the dev server) on PostgreSQL.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { run } from './exec';
import { findOrBuildGoBinary } from './go-binary';

export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const MODULE = 'go.temporal.io/server';

export function findTemporalServer(): Promise<string> {
  return findOrBuildGoBinary({
    binary: 'temporal-server',
    installs: 'server',
    envVar: 'TEMPORAL_SERVER_PATH',
    label: `Temporal server ${TEMPORAL_SERVER_VERSION}`,
    module: `${MODULE}/cmd/server@${TEMPORAL_SERVER_VERSION}`,
  });
}

export function findTemporalSqlTool(): Promise<string> {
  return findOrBuildGoBinary({
    binary: 'temporal-sql-tool',
    installs: 'sql',
    envVar: 'TEMPORAL_SQL_TOOL_PATH',
    label: `Temporal sql tool ${TEMPORAL_SERVER_VERSION}`,
    module: `${MODULE}/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
  });
}

/**
 * The versioned PostgreSQL schemas of the server module (`schema/postgresql/v12/{temporal,visibility}`):
 * from TEMPORAL_SCHEMA_DIR, else the Go module cache, where `go install` left the module (fetched
 * with `go mod download` when a binary came from elsewhere).
 */
export async function findTemporalSchemaDir(): Promise<string> {
  if (process.env.TEMPORAL_SCHEMA_DIR) return process.env.TEMPORAL_SCHEMA_DIR;
  const go = existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go';
  const schemaDir = async () => path.join((await run(go, ['env', 'GOMODCACHE'])).stdout.trim(), `${MODULE}@${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql', 'v12');
  let dir = await schemaDir();
  if (!existsSync(dir)) {
    await run(go, ['mod', 'download', `${MODULE}@${TEMPORAL_SERVER_VERSION}`]);
    dir = await schemaDir();
  }
  if (!existsSync(path.join(dir, 'temporal', 'versioned'))) throw new Error(`the Temporal PostgreSQL schemas are not in ${dir}; set TEMPORAL_SCHEMA_DIR to the module's schema/postgresql/v12`);
  return dir;
}

/** The Temporal Web UI server, at the version the Temporal CLI v1.5.1 embeds. */
export const TEMPORAL_UI_VERSION = 'v2.42.1';

export function findTemporalUiServer(): Promise<string> {
  return findOrBuildGoBinary({
    binary: 'temporal-ui-server',
    installs: 'server',
    envVar: 'TEMPORAL_UI_SERVER_PATH',
    label: `Temporal Web UI server ${TEMPORAL_UI_VERSION}`,
    module: `github.com/temporalio/ui-server/v2/cmd/server@${TEMPORAL_UI_VERSION}`,
  });
}
